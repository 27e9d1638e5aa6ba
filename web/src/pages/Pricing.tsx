import { Page } from '@/components/layout/Page';

export default function Pricing() {
  return <Page title="Pricing" />;
}
