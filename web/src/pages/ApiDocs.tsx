import { Page } from '@/components/layout/Page';

export default function ApiDocs() {
  return <Page title="ApiDocs" />;
}
