import { Page } from '@/components/layout/Page';

export default function About() {
  return <Page title="About" />;
}
