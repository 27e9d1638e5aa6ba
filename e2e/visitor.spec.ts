import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expectedMs, type ImageJob, type LibraryPage, type Me } from '@ai-editor/core';
import sharp from 'sharp';
import { signIn } from './auth-support';
import { expect, type Page, test } from './fixtures';
import { choosePhoto, expectResult, fixture, resizedPhoto, skipTutorials } from './tool-support';

/**
 * The visitor's path around a job: one click is one job and one use, limits are shown before the click, and
 * guests live by the same daily allowance and see previews. Real server, real engines, real Chromium.
 */
const OUT = path.join(import.meta.dirname, '../test-output/visitor');
const DAILY_LIMIT = "You've reached your daily limit for this feature. Please try again tomorrow.";

const me = async (page: Page) => (await (await page.request.get('/api/me')).json()) as Me;

/** Screenshots of the page at the desktop and phone widths, for looking at. */
async function shoot(page: Page, name: string) {
  fs.mkdirSync(OUT, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(OUT, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a double-click on Process Image makes one job and spends one use; the result arrives by push', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await skipTutorials(page);
  await signIn(page);
  const posts: string[] = [];
  const keys: (string | undefined)[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/images') {
      posts.push(r.url());
      keys.push(r.headers()['idempotency-key']);
    }
  });
  const streams: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/events')) streams.push(r.url());
  });
  await page.goto('/features/pencil-sketch');
  await expect(page.getByTestId('uses-left')).toHaveText('2 of 2 uses left today');
  await choosePhoto(page, fixture('coffee.png'));
  await page.getByRole('button', { name: 'Process Image' }).dblclick();
  await expectResult(page);
  await expect(page.getByTestId('uses-left')).toHaveText('1 of 2 uses left today');

  expect(posts).toHaveLength(1);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(streams).toHaveLength(1);
  expect((await me(page)).usage['pencil-sketch']).toMatchObject({ used: 1, left: 1 });
  const library = (await (await page.request.get('/api/images')).json()) as LibraryPage;
  expect(library.items).toHaveLength(1);
});

test('a status stream that cannot be opened: the page polls the job instead, and the result arrives', async ({
  page,
}, info) => {
  test.setTimeout(300_000);
  await skipTutorials(page);
  await signIn(page);
  const refused: string[] = [];
  await page.route('**/api/images/*/events', (route) => {
    refused.push(route.request().url());
    return route.abort('connectionrefused');
  });
  // A job of a few seconds (denoising a 1800x1200 photo): long enough for the 2 s poll to ask more than once.
  const photo = await resizedPhoto('chelsea.png', 1800, 1200, info.outputPath('photos'), 'jpeg');
  await page.goto('/features/denoising');
  await choosePhoto(page, photo);
  const polls: number[] = [];
  page.on('request', (r) => {
    if (r.method() === 'GET' && /^\/api\/images\/\d+$/.test(new URL(r.url()).pathname)) polls.push(Date.now());
  });
  await page.getByRole('button', { name: 'Process Image' }).click();
  await expectResult(page, 240_000);
  expect(refused).toHaveLength(1);
  expect(polls.length).toBeGreaterThanOrEqual(2);
});

test('the same Idempotency-Key twice gives the same job id, and one use', async ({ page }) => {
  await signIn(page);
  const key = randomUUID();
  const send = () =>
    page.request.post('/api/images', {
      headers: { 'Idempotency-Key': key },
      multipart: {
        operation: 'pencil-sketch',
        file: { name: 'coffee.png', mimeType: 'image/png', buffer: fs.readFileSync(fixture('coffee.png')) },
      },
    });
  const first = await send();
  const second = await send();
  expect([first.status(), second.status()]).toEqual([201, 200]);
  expect(((await second.json()) as ImageJob).id).toBe(((await first.json()) as ImageJob).id);
  expect((await me(page)).usage['pencil-sketch']).toMatchObject({ used: 1 });
});

test('0 uses left: Process Image is disabled with the reason and when uses come back', async ({ page }) => {
  await skipTutorials(page);
  await signIn(page);
  for (let i = 0; i < 2; i++) {
    const res = await page.request.post('/api/images', {
      multipart: {
        operation: 'pencil-sketch',
        file: { name: 'coffee.png', mimeType: 'image/png', buffer: fs.readFileSync(fixture('coffee.png')) },
      },
    });
    expect(res.status()).toBe(201);
  }
  await page.goto('/features/pencil-sketch');
  await choosePhoto(page, fixture('coffee.png'));
  await expect(page.getByTestId('uses-left')).toHaveText('0 of 2 uses left today');
  const button = page.getByRole('button', { name: 'Process Image' });
  await expect(button).toBeDisabled();
  const reason = page.getByTestId('limit-reason');
  await expect(reason).toContainText('Daily Limit Reached');
  await expect(reason).toContainText(/They come back (today|tomorrow) at .+ \(your time\)/);
  await expect(button).toHaveAccessibleDescription(/Daily Limit Reached/);
  await shoot(page, 'tool-no-uses-left');

  // The account menu lists the uses left today.
  await page.getByTestId('account-menu').click();
  await expect(page.getByTestId('uses-today')).toContainText('Pencil Sketch');
  await expect(page.getByTestId('uses-today')).toContainText('0 of 2');
  await shoot(page, 'account-menu-uses');
});

test('a guest: results are previews of at most 1024 px, and the third face enhancement of the day is refused', async ({
  page,
}, info) => {
  test.setTimeout(420_000);
  await skipTutorials(page);
  await page.goto('/features/face-enhancement');
  await expect(page.getByTestId('uses-left')).toHaveText('2 of 2 uses left today');
  const large = await resizedPhoto('astronaut.png', 1400, 1400, info.outputPath('photos'));
  await choosePhoto(page, large);
  await page.getByRole('button', { name: 'Process Image' }).click();
  const card = await expectResult(page, 360_000);
  const result = card.getByRole('img', { name: 'Result' });
  await expect
    .poll(() => result.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 30_000 })
    .toBeGreaterThan(0);
  const size = await result.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
  expect(Math.max(...size)).toBeLessThanOrEqual(1024);
  await expect(page.getByTestId('preview-notice')).toContainText(
    'Sign in with Google to get the full-size image and the download',
  );
  // Any address the guest can reach gives the preview only.
  const src = (await result.getAttribute('src')) as string;
  const direct = await page.request.get(src.replace(/\?.*$/, ''));
  expect(direct.status()).toBe(200);
  const served = await sharp(await direct.body()).metadata();
  expect(Math.max(served.width, served.height)).toBeLessThanOrEqual(1024);
  await expect(page.getByTestId('uses-left')).toHaveText('1 of 2 uses left today');
  await shoot(page, 'guest-preview');

  // The second use, then the third is refused: the button says why before the click, and the server agrees.
  const photo = { name: 'coffee.png', mimeType: 'image/png', buffer: fs.readFileSync(fixture('coffee.png')) };
  const second = await page.request.post('/api/images?operation=face-enhancement', { multipart: { file: photo } });
  expect(second.status()).toBe(201);
  await page.reload();
  await expect(page.getByTestId('uses-left')).toHaveText('0 of 2 uses left today');
  await expect(page.getByTestId('limit-reason')).toContainText('Daily Limit Reached');
  const third = await page.request.post('/api/images?operation=face-enhancement', { multipart: { file: photo } });
  expect(third.status()).toBe(429);
  expect(await third.json()).toEqual({ code: 'DAILY_LIMIT_REACHED', message: DAILY_LIMIT });
});

test('before the click: how long this photo should take, from the measured durations; tips that hold', async ({
  page,
}, info) => {
  await skipTutorials(page);
  await page.goto('/features/face-enhancement');
  const estimate = page.getByTestId('photo-estimate');
  await expect(estimate).toHaveCount(0);
  await choosePhoto(page, await resizedPhoto('astronaut.png', 1800, 1800, info.outputPath('photos')));
  // The table the server schedules by; a 2x upscale counts its larger output.
  const seconds = (scale: string) =>
    Math.ceil(expectedMs('face-enhancement', { width: 1800, height: 1800 }, { scale }) / 1000);
  expect(seconds('2')).toBeGreaterThan(seconds('1'));
  await expect(estimate).toHaveText(`Processing takes about ${seconds('1')} s for this photo (1800×1800).`);
  await page.getByLabel('Output size').selectOption('2');
  await expect(estimate).toHaveText(`Processing takes about ${seconds('2')} s for this photo (1800×1800).`);

  await expect(page.getByText('The result is a PNG unless you choose JPEG or WebP under Output.')).toBeVisible();
  await expect(page.getByText(/within 30 seconds|always a PNG/)).toHaveCount(0);
  await expect(page.getByTestId('output-options')).toContainText('Output: PNG');
  await shoot(page, 'tool-estimate');
});
