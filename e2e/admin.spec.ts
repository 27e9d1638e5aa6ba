import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type ApiClient, submitForm } from '@ai-editor/client';
import sharp from 'sharp';
import { apiAs } from './api';
import { signIn, signInWithGoogleEmail } from './auth-support';
import { expect, testOnOwnServer } from './fixtures';
import { ROOT } from './server';

/**
 * The admin page as an operator uses it, on a server whose ADMIN_EMAILS names one account: the queue shows another
 * visitor's running job and cancels it, the failures list shows it, the usage chart is drawn; a visitor is refused.
 */
const ADMIN_EMAIL = `e2e-admin-${randomUUID()}@example.com`;
const SHOTS = path.join(ROOT, 'test-output/admin');

const test = testOnOwnServer({ ADMIN_EMAILS: ADMIN_EMAIL, ENGINE_PRELOAD: 'false' });

/**
 * A 4x super-resolution of a 1200x800 photo: heavy-lane work of many seconds (a 600x400 one is quick-lane work of about
 * a second, done before the admin looks), so it is still running when the admin looks, and a second one waits for it.
 */
async function submitSlowJob(api: ApiClient): Promise<number> {
  const png = await sharp(path.join(ROOT, 'fixtures/coffee.png')).resize(1200, 800, { fit: 'fill' }).png().toBuffer();
  const photo = new Blob([new Uint8Array(png)], { type: 'image/png' });
  const { data, response } = await api.POST('/api/images', {
    params: { query: { operation: 'super-resolution' } },
    // The schema's multipart body is one form per tool; openapi-fetch sends a FormData as it is.
    body: submitForm({ operation: 'super-resolution', scale: 4, file: photo }) as never,
  });
  expect(response.status).toBe(201);
  if (!data) throw new Error('no job');
  return data.id;
}

test('an admin sees the running job of another visitor, cancels it, and sees failures and usage', async ({
  browser,
  ownServer,
}) => {
  test.setTimeout(300_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const visitorContext = await browser.newContext({ baseURL: ownServer.url });
  const visitorPage = await visitorContext.newPage();
  await visitorPage.goto('/');
  const visitor = await signIn(visitorPage, 'Busy Visitor');
  const visitorApi = await apiAs(visitorPage, ownServer.url);
  const running = await submitSlowJob(visitorApi);
  const waiting = await submitSlowJob(visitorApi);

  // A context of its own per visitor (browser.newPage's own context does not take further pages, which the
  // sign-in popup and the accessibility guard need).
  const page = await (await browser.newContext({ baseURL: ownServer.url })).newPage();
  await page.goto('/');
  await signInWithGoogleEmail(page, ADMIN_EMAIL);
  await page.reload();
  await page.getByTestId('account-menu').click();
  await page.getByRole('menuitem', { name: 'Admin' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();

  const queue = page.getByRole('table', { name: 'Queue now' });
  const runningRow = queue.getByRole('row').filter({ hasText: `#${running}` });
  await expect(runningRow).toContainText('super-resolution');
  await expect(runningRow).toContainText('running', { timeout: 60_000 });
  await expect(runningRow).toContainText(visitor.email);
  // The second job waits for the host, or runs already where the server has a second one free.
  await expect(queue.getByRole('row').filter({ hasText: `#${waiting}` })).toContainText(/waiting|running/);
  await page.screenshot({ path: path.join(SHOTS, 'admin-queue.png'), fullPage: true });

  await runningRow.getByRole('button', { name: `Cancel job ${running}` }).click();
  await expect(page.getByText(`Job #${running} cancelled`).first()).toBeVisible();
  await expect(queue.getByRole('row').filter({ hasText: `#${running}` })).toHaveCount(0);
  // The visitor's job failed 'Cancelled'.
  const { data: job } = await visitorApi.GET('/api/images/{id}', { params: { path: { id: String(running) } } });
  expect(job).toMatchObject({ status: 'failed', metadata: { error: 'Cancelled', errorCode: 'CANCELLED' } });

  const failures = page.getByRole('table', { name: 'Recent failures' });
  const failure = failures.getByRole('row').filter({ hasText: `#${running}` });
  await expect(failure).toContainText('CANCELLED');
  await expect(failure).toContainText('1200×800');
  // The filter by code keeps it; another code hides it.
  await page.getByPlaceholder('e.g. CANCELLED').fill('WORKER_CRASHED');
  await expect(page.getByText('No failed job.')).toBeVisible();
  await page.getByPlaceholder('e.g. CANCELLED').fill('CANCELLED');
  await expect(failure).toBeVisible();

  const chart = page.getByRole('img', { name: /Jobs per day over the last 30 days: 2 in all/ });
  await expect(chart).toBeVisible();
  expect(await chart.locator('rect').count()).toBeGreaterThan(0);
  await expect(page.getByTestId('distinct-users')).toHaveText('1');
  await expect(page.getByTestId('engine-host').first()).toBeVisible();
  await page.getByRole('heading', { name: 'Usage' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, 'admin-after-cancel.png'), fullPage: true });

  // The waiting job is not left to load the machine.
  const adminApi = await apiAs(page, ownServer.url);
  const cancelled = await adminApi.POST('/api/admin/jobs/{id}/cancel', { params: { path: { id: String(waiting) } } });
  expect(cancelled.response.status).toBe(200);
  await visitorContext.close();
});

test('a visitor who is not an admin is refused, on the page and by the API', async ({ page, ownServer }) => {
  await page.goto('/');
  await signIn(page);
  await page.goto('/admin');
  await expect(page.getByRole('alert')).toHaveText('Only administrators may see this page');
  await expect(page.getByRole('table')).toHaveCount(0);
  const refused = await (await apiAs(page, ownServer.url)).GET('/api/admin/jobs');
  expect(refused.response.status).toBe(403);
  expect(refused.error).toMatchObject({ code: 'ADMIN_ONLY' });
  await page.getByTestId('account-menu').click();
  await expect(page.getByRole('menuitem', { name: 'Admin' })).toHaveCount(0);
  await page.keyboard.press('Escape'); // the picture shows the page, not the menu
  await expect(page.getByRole('menu')).toHaveCount(0);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, 'admin-refused.png') });
});

test('an admin blocks an account after confirming; its header says it is suspended, and why', async ({
  browser,
  ownServer,
}) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  const visitorPage = await (await browser.newContext({ baseURL: ownServer.url })).newPage();
  await visitorPage.goto('/');
  const visitor = await signIn(visitorPage, 'Soon Suspended');

  // A context of its own per visitor (browser.newPage's own context does not take further pages, which the
  // sign-in popup and the accessibility guard need).
  const page = await (await browser.newContext({ baseURL: ownServer.url })).newPage();
  await page.goto('/');
  await signInWithGoogleEmail(page, ADMIN_EMAIL);
  await page.goto('/admin');
  await page.getByRole('searchbox').fill(visitor.email);
  const row = page.getByTestId('account-row').filter({ hasText: visitor.email });
  await expect(row).toContainText('active');
  // The first click asks; keeping the account active changes nothing.
  await row.getByRole('button', { name: 'Block' }).click();
  await expect(row.getByRole('group', { name: 'Confirm the block' })).toContainText(
    `Block ${visitor.email}? Its waiting and running jobs are cancelled.`,
  );
  await row.getByRole('button', { name: 'Keep active' }).click();
  await expect(row).toContainText('active');
  await row.getByRole('button', { name: 'Block' }).click();
  await page.screenshot({ path: path.join(SHOTS, 'admin-confirm-block.png') });
  await row.getByRole('button', { name: 'Yes, block' }).click();
  await expect(row).toContainText('blocked');

  // The blocked visitor's header: the avatar, and the suspension in plain sight; the menu says why.
  await visitorPage.reload();
  await expect(visitorPage.getByTestId('account-suspended')).toHaveText('Account suspended');
  await expect(visitorPage.getByTestId('account-name')).toHaveText('Soon Suspended');
  await visitorPage.getByTestId('account-menu').click();
  await expect(visitorPage.getByTestId('suspended-reason')).toHaveText(
    'An administrator of this site suspended this account. Sign out to go on as a guest',
  );
  await expect(visitorPage.getByRole('menuitem', { name: 'API keys' })).toHaveCount(0);
  await visitorPage.screenshot({ path: path.join(SHOTS, 'suspended-header.png') });
  // Signing out leaves a guest who may use the guest tool again.
  await visitorPage.getByTestId('sign-out').click();
  await expect(visitorPage.getByTestId('sign-in')).toBeVisible();
  await expect(visitorPage.getByTestId('account-suspended')).toHaveCount(0);
  await visitorPage.close();
  await page.close();
});
