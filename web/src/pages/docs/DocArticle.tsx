import { Page } from '@/components/layout/Page';

export default function DocArticle() {
  return <Page title="DocArticle" />;
}
