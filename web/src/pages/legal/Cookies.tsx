import { Page } from '@/components/layout/Page';

export default function Cookies() {
  return <Page title="Cookies" />;
}
