import { Page } from '@/components/layout/Page';

export default function Editor() {
  return <Page title="Editor" />;
}
