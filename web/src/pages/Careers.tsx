import { Page } from '@/components/layout/Page';

export default function Careers() {
  return <Page title="Careers" />;
}
