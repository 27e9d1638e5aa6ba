import { Page } from '@/components/layout/Page';

export default function Docs() {
  return <Page title="Docs" />;
}
