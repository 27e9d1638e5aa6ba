import { Page } from '@/components/layout/Page';

export default function TaguchiDesign() {
  return <Page title="TaguchiDesign" />;
}
