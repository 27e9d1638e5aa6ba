import { Page } from '@/components/layout/Page';

export default function Blog() {
  return <Page title="Blog" />;
}
