import fs from 'node:fs';
import type { ImageJob } from '@ai-editor/core';
import { expect, type Page, test } from './fixtures';
import { allowUse, choosePhoto, expectResult, fixture, resizedPhoto, skipTutorials, toast } from './tool-support';

/** Submits a job through the page's own cookie jar (so the page may see it), as the tool page would. */
async function submit(page: Page, photo: string, operation: string, fields: Record<string, string> = {}) {
  const res = await page.request.post('/api/images', {
    multipart: {
      operation,
      ...fields,
      file: { name: 'photo.png', mimeType: 'image/png', buffer: fs.readFileSync(photo) },
    },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as ImageJob).id;
}

test('pending shows a skeleton and progress, then the completed image and its download', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(300_000);
  const photo = await resizedPhoto('chelsea.png', 1600, 1066, info.outputDir);
  // Another visitor's jobs ahead keep the watched one waiting in the queue for a while (one worker thread).
  const other = await (await browser.newContext()).newPage();
  await allowUse(other, 'denoising');
  await submit(other, photo, 'denoising');
  await submit(other, photo, 'denoising');
  await allowUse(page, 'denoising');
  const id = await submit(page, photo, 'denoising');
  await page.goto(`/result?id=${id}`);
  const pending = page.getByTestId('result-pending');
  await expect(pending).toBeVisible();
  await expect(pending).toContainText('Enhancing your image...');
  // While it waits there is no real progress yet: the spec's fixed 30 %.
  await expect(page.getByTestId('result-percent')).toHaveText('30%');
  await expect(pending.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '30');

  const done = page.getByTestId('result-completed');
  await expect(done).toBeVisible({ timeout: 240_000 });
  await expect(page.getByTestId('result-status')).toHaveText('completed');
  await expect(done.getByRole('img', { name: 'Denoising result' })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    done.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`denoising-${id}.png`);
  await expect(toast(page, 'Success', 'Image downloaded successfully')).toBeVisible();
  await other.context().close();
});

test('an image that cannot be loaded: the error toast, and no result card', async ({ page }) => {
  await page.goto('/result?id=987654');
  await expect(toast(page, 'Error', 'Failed to load image. Please try again.')).toBeVisible();
  await expect(page.getByTestId('result-pending')).toHaveCount(0);
  await expect(page.getByTestId('result-completed')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Back to Home' })).toBeVisible();
});

test('without an id there is no query and a hint', async ({ page }) => {
  let queried = false;
  page.on('request', (r) => {
    if (/\/api\/images\//.test(r.url())) queried = true;
  });
  await page.goto('/result');
  await expect(page.getByTestId('result-empty')).toContainText('No image selected');
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(queried).toBe(false);
});

test('a deployment with downloads turned off shows no Download button, on the tool page or the result page', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // DOWNLOADS_ENABLED=false reaches the browser only through /api/config; this page sees the real answer with it off.
  await page.route('**/api/config', async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, json: { ...(await res.json()), downloadsEnabled: false } });
  });
  await skipTutorials(page);
  await allowUse(page, 'pencil-sketch');
  await page.goto('/features/pencil-sketch');
  await choosePhoto(page, fixture('coffee.png'));
  await page.getByRole('button', { name: 'Process Image' }).click();
  const card = await expectResult(page);
  await expect(card.getByRole('img').first()).toBeVisible();
  await expect(card.getByRole('link', { name: 'Open result page' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Download' })).toHaveCount(0);

  await card.getByRole('link', { name: 'Open result page' }).click();
  const done = page.getByTestId('result-completed');
  await expect(done.getByRole('img', { name: 'Pencil Sketch result' })).toBeVisible();
  await expect(done.getByRole('button', { name: 'Download' })).toHaveCount(0);
});
