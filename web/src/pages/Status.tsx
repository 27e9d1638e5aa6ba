import { Page } from '@/components/layout/Page';

export default function Status() {
  return <Page title="Status" />;
}
