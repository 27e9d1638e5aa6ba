import type { Health } from '@ai-editor/core';
import { expect, test } from './fixtures';

test('the status page shows the live state from /api/health', async ({ page, request }) => {
  const health = (await (await request.get('/api/health')).json()) as Health;
  await page.goto('/status');
  const services = page.getByRole('list', { name: 'Services' });
  for (const name of [
    'Image Enhancement API',
    'Background Removal API',
    'Style Transfer API',
    'User Authentication',
    'Image Storage',
    'Background Jobs',
    'Web Application',
  ]) {
    await expect(services.getByText(name, { exact: true })).toBeVisible();
  }
  await expect(
    services.getByTestId('status-row').filter({ hasText: 'Image Storage' }).locator('[data-state]'),
  ).toHaveAttribute('data-state', 'up');
  const engines = page.getByRole('list', { name: 'AI engines' });
  await expect(engines.getByTestId('status-row')).toHaveCount(health.engines.length);
  for (const e of health.engines) {
    const row = engines
      .getByTestId('status-row')
      .filter({ hasText: e.name ?? e.operation })
      .first();
    await expect(row.locator('[data-state]')).toHaveAttribute('data-state', e.available ? 'up' : 'down');
  }
  await expect(page.getByText('uptime', { exact: false })).toHaveCount(0);
});

test('an engine switched off in configuration shows as unavailable', async ({ page }) => {
  // global-setup starts the server with ENGINE_SUPER_RESOLUTION=off.
  await page.goto('/status');
  const row = page
    .getByRole('list', { name: 'AI engines' })
    .getByTestId('status-row')
    .filter({ hasText: 'Super Resolution' });
  await expect(row.locator('[data-state]')).toHaveAttribute('data-state', 'down');
  await expect(row).toContainText('Unavailable');
  await expect(row).toContainText('switched off');
});

test('the status page refreshes by itself', async ({ page }) => {
  let calls = 0;
  let answered = 0;
  const isHealth = (url: string) => url.endsWith('/api/health');
  page.on('request', (req) => {
    if (isHealth(req.url())) calls++;
  });
  page.on('requestfinished', (req) => {
    if (isHealth(req.url())) answered++;
  });
  await page.clock.install();
  await page.goto('/status');
  // The clock moves on only once the first check has answered: a refresh due while it is still in flight
  // joins it rather than asking again (a slow server made this test flaky).
  await expect.poll(() => answered).toBe(1);
  await page.clock.runFor(16_000);
  await expect.poll(() => calls).toBe(2);
});
