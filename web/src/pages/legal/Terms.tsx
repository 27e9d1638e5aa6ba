import { Page } from '@/components/layout/Page';

export default function Terms() {
  return <Page title="Terms" />;
}
