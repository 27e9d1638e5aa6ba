import type * as React from 'react';
import { Page, Prose } from '@/components/layout/Page';

export const LAST_UPDATED = '1 June 2025';

export function LegalPage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Page title={title} lead={`Last updated: ${LAST_UPDATED}`}>
      <Prose>{children}</Prose>
    </Page>
  );
}
