import { Page } from '@/components/layout/Page';

export default function Faq() {
  return <Page title="Faq" />;
}
