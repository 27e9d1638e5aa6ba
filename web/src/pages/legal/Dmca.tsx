import { Page } from '@/components/layout/Page';

export default function Dmca() {
  return <Page title="Dmca" />;
}
