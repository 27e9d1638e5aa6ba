import { Page } from '@/components/layout/Page';

export default function Customize() {
  return <Page title="Customize" />;
}
