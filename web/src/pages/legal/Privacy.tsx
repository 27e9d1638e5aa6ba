import { Page } from '@/components/layout/Page';

export default function Privacy() {
  return <Page title="Privacy" />;
}
