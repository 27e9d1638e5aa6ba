import { Page } from '@/components/layout/Page';

export default function Contact() {
  return <Page title="Contact" />;
}
