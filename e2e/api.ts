import { type ApiClient, createApiClient } from '@ai-editor/client';
import type { Page } from '@playwright/test';

/** The typed client (generated from /api/openapi.json) as this page's visitor: the browser's session cookie now. */
export async function apiAs(page: Page, baseUrl: string): Promise<ApiClient> {
  const cookies = await page.context().cookies(baseUrl);
  return createApiClient({ baseUrl, headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') } });
}
