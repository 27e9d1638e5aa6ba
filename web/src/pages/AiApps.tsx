import { Page } from '@/components/layout/Page';

export default function AiApps() {
  return <Page title="AiApps" />;
}
