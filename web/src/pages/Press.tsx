import { Page } from '@/components/layout/Page';

export default function Press() {
  return <Page title="Press" />;
}
