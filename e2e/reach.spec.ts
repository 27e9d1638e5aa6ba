import { type Health, OPERATIONS } from '@ai-editor/core';
import { expect, test } from './fixtures';
import { seriousViolations } from './tool-support';

/**
 * Every tool in reach: /ai-apps links every tool this server runs and lists the others apart; the editor is in the
 * header and the mobile menu; the landing grid puts the tools this server runs first and, on a phone, has no
 * scroll box of its own. (This suite's server runs without a provider token and with super resolution off.)
 */

async function serverTools(request: import('@playwright/test').APIRequestContext) {
  const health = (await (await request.get('/api/health')).json()) as Health;
  const off = new Set(health.engines.filter((e) => !e.available).map((e) => e.operation));
  const runs = OPERATIONS.filter((op) => op.status === 'working' && !off.has(op.id));
  const cannot = OPERATIONS.filter((op) => !runs.includes(op));
  return { runs, cannot };
}

test('/ai-apps links every tool this server runs, lists the others apart, and keeps the coming-soon apps', async ({
  page,
}, info) => {
  const { runs, cannot } = await serverTools(page.request);
  expect(runs.length).toBeGreaterThan(8);
  expect(cannot.map((op) => op.id)).toContain('super-resolution');
  await page.goto('/ai-apps');
  const available = page.getByTestId('apps-available');
  for (const op of runs) {
    await expect(available.getByRole('link', { name: `Open ${op.name}` })).toHaveAttribute('href', op.route);
  }
  await expect(available.getByRole('link')).toHaveCount(runs.length);
  const off = page.getByTestId('apps-unavailable');
  for (const op of cannot) await expect(off).toContainText(op.name);
  await expect(off.getByRole('link')).toHaveCount(0);
  for (const name of ['Document Scanner & OCR', 'AI Teacher', 'Project Report Creator']) {
    await expect(page.getByRole('region', { name: 'Coming soon' }).getByText(name)).toBeVisible();
  }
  // An app opens its tool.
  await available.getByRole('link', { name: 'Open Pencil Sketch' }).click();
  await expect(page).toHaveURL(/\/features\/pencil-sketch$/);
  await page.goto('/ai-apps');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: info.outputPath(`ai-apps-${width}.png`), fullPage: true });
  }
  expect(await seriousViolations(page)).toEqual([]);
});

test('the editor is in the header, and in the mobile menu', async ({ page }, info) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Editor' }).click();
  await expect(page).toHaveURL(/\/editor$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Editor' })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  await expect(menu.getByRole('link')).toHaveText(['Home', 'AI APPS', 'Editor', 'Pricing', 'FAQ', 'My images']);
  await page.screenshot({ path: info.outputPath('mobile-menu-390.png') });
  await menu.getByRole('link', { name: 'Editor' }).click();
  await expect(page).toHaveURL(/\/editor$/);
});

test('the landing grid: tools this server runs first, no scroll box on a phone, the 600 px area on wide screens', async ({
  page,
}, info) => {
  const { runs } = await serverTools(page.request);
  await page.goto('/');
  const grid = page.getByTestId('feature-grid');
  const cards = grid.getByTestId('feature-card');
  await expect(cards).toHaveCount(OPERATIONS.length);
  // Once the server said what it runs: every offered card comes before every other, face enhancement first.
  await expect(grid.locator('[data-offered="false"]').first()).toBeVisible();
  const offered = await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-offered')));
  expect(offered).toEqual([
    ...Array(runs.length).fill('true'),
    ...Array(OPERATIONS.length - runs.length).fill('false'),
  ]);
  await expect(cards.first()).toContainText('Face Enhancement');

  const box = () =>
    grid.evaluate((el: HTMLElement) => ({
      height: el.offsetHeight,
      inner: el.clientHeight,
      scroll: el.scrollHeight,
      overflow: getComputedStyle(el).overflowY,
    }));
  expect(await box()).toMatchObject({ height: 600, overflow: 'auto' });

  await page.setViewportSize({ width: 390, height: 844 });
  const phone = await box();
  expect(phone.overflow).toBe('visible');
  expect(phone.scroll).toBeLessThanOrEqual(phone.inner);
  expect(phone.height).toBeGreaterThan(1500);
  // Every card is reached by scrolling the page itself.
  await cards.last().scrollIntoViewIfNeeded();
  await expect(cards.last()).toBeInViewport();
  // Each card's badge stays inside its card ("Colorization" and its long badge do not fit on one line).
  const outside = await cards.evaluateAll((els) =>
    els.flatMap((card) => {
      const c = card.getBoundingClientRect();
      return Array.from(card.querySelectorAll('[data-testid="unavailable-badge"]'))
        .map((b) => b.getBoundingClientRect())
        .filter((b) => b.left < c.left || b.right > c.right)
        .map(() => card.textContent?.slice(0, 30));
    }),
  );
  expect(outside).toEqual([]);
  await grid.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('landing-grid-390.png') });
});
