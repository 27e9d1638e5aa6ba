import fs from 'node:fs';
import type { ImageJob } from '@ai-editor/core';
import { signIn } from './auth-support';
import { expect, type Page, test } from './fixtures';
import { choosePhoto, expectResult, fixture, resizedPhoto, seriousViolations, skipTutorials } from './tool-support';

/** The job the tool page shows, from its address (`?job=ID`). */
async function jobInUrl(page: Page): Promise<number> {
  await expect(page).toHaveURL(/[?&]job=\d+/);
  return Number(new URL(page.url()).searchParams.get('job'));
}

async function bytesOf(page: Page, url: string): Promise<Buffer> {
  const res = await page.request.get(url);
  expect(res.status(), url).toBe(200);
  return res.body();
}

// Jobs run real engines on a small shared machine; the first sign-in waits for the Auth emulator.
test.describe.configure({ timeout: 400_000 });

test.beforeEach(async ({ page }) => {
  await skipTutorials(page);
  await signIn(page);
});

test('a job appears in My images with its thumbnail, and is gone when deleted (its result URL then 404)', async ({
  page,
}, info) => {
  await page.goto('/features/background-removal');
  await choosePhoto(page, fixture('coffee.png'));
  await page.getByRole('button', { name: 'Process Image' }).click();
  const id = await jobInUrl(page);
  await expectResult(page);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My images' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'My images' })).toBeVisible();
  const item = page.locator(`[data-testid="library-item"][data-job-id="${id}"]`);
  await expect(item.getByRole('heading', { name: 'Background Removal' })).toBeVisible();
  await expect(item.getByTestId('library-status')).toHaveText('Completed');
  await expect(item.getByText(/Deleted in (23|24) h/)).toBeVisible();
  // The thumbnail is the server's small WebP, loaded and drawn.
  const thumb = item.getByTestId('thumbnail');
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(192);
  const src = await thumb.getAttribute('src');
  expect((await page.request.get(src as string)).headers()['content-type']).toBe('image/webp');
  expect(await seriousViolations(page)).toEqual([]);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: info.outputPath(`my-images-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  await item.getByRole('button', { name: /^Delete Background Removal/ }).click();
  await expect(item).toHaveCount(0);
  await expect(page.getByTestId('library-empty')).toBeVisible();
  expect((await page.request.get(`/api/images/${id}/result/0`)).status()).toBe(404);
  expect((await page.request.get(src as string)).status()).toBe(404);
  await page.goto(`/result?id=${id}`);
  await expect(page.getByTestId('result-completed')).toHaveCount(0);
});

test('a result chained into a second tool runs on exactly that result, with no new upload', async ({ page }) => {
  await page.goto('/features/denoising');
  await choosePhoto(page, fixture('astronaut.png'));
  await page.getByRole('button', { name: 'Process Image' }).click();
  const first = await jobInUrl(page);
  const card = await expectResult(page);

  await card.getByTestId('use-in-tool').click();
  await page.getByTestId('use-in-background-removal').click();
  await expect(page).toHaveURL(new RegExp(`/features/background-removal\\?from=${first}$`));
  // The result is the photo here: shown, not asked for.
  await expect(page.getByRole('main').getByText(`result-${first}.png`)).toBeVisible();
  const uploads: number[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/images') {
      uploads.push(r.postDataBuffer()?.length ?? 0);
    }
  });
  await page.getByRole('button', { name: 'Process Image' }).click();
  const second = await jobInUrl(page);
  expect(second).not.toBe(first);
  // The form named the job: a few hundred bytes, not a photo.
  expect(uploads.length).toBe(1);
  expect(uploads[0]).toBeLessThan(2000);
  const chained = await expectResult(page);
  // Before and after on the same checkerboard: a chained job's photo may itself have transparency.
  const backdrop = (side: string) => chained.getByTestId(side).evaluate((el) => getComputedStyle(el).backgroundImage);
  expect(await backdrop('compare-before')).toContain('conic-gradient');
  expect(await backdrop('compare-before')).toBe(await backdrop('compare-after'));

  const firstResult = await bytesOf(page, `/api/images/${first}/result/0`);
  const secondInput = await bytesOf(page, `/api/images/${second}/original`);
  expect(secondInput.equals(firstResult)).toBe(true);
  const job = (await (await page.request.get(`/api/images/${second}`)).json()) as ImageJob;
  expect(job.sourceImageId).toBe(first);
});

test('a reload in the middle of a job shows its progress, then its result', async ({ page }, info) => {
  // Large enough that denoising takes several seconds on this machine.
  const photo = await resizedPhoto('chelsea.png', 3000, 2000, info.outputDir, 'jpeg');
  await page.goto('/features/denoising');
  await choosePhoto(page, photo);
  await page.getByRole('button', { name: 'Process Image' }).click();
  const id = await jobInUrl(page);
  await expect(page.getByTestId('job-progress')).toBeVisible();
  await page.reload();
  expect(await jobInUrl(page)).toBe(id);
  // The job is still running after the reload: the page shows its progress and a Cancel button.
  await expect(page.getByTestId('job-progress')).toBeVisible();
  expect((await (await page.request.get(`/api/images/${id}`)).json()).status).toBe('pending');
  await expect(page.getByTestId('cancel-job')).toBeVisible();
  const card = await expectResult(page, 300_000);
  await expect(card.getByRole('img', { name: 'Result' })).toBeVisible();
  // A shared link to the finished job shows the result at once.
  await page.goto(`/features/denoising?job=${id}`);
  await expectResult(page);
});

test('the editor applies steps one after another, goes back to any step and downloads the last', async ({
  page,
}, info) => {
  await page.goto('/editor');
  await page.getByLabel('Choose a photo').setInputFiles(fixture('astronaut.png'));
  const steps = page.getByTestId('editor-step-item');
  await expect(steps).toHaveCount(1);

  // Step 1: the photo itself is uploaded once.
  await page.getByTestId('editor-tool-denoising').click();
  await expect(page.getByRole('heading', { name: 'Step 1: Denoising' })).toBeVisible();
  await page.getByRole('button', { name: 'Process Image' }).click();
  await expect(steps).toHaveCount(2, { timeout: 150_000 });
  await expect(page).toHaveURL(/\/editor\?steps=\d+$/);
  const [firstId] = new URL(page.url()).searchParams.get('steps')?.split(',').map(Number) ?? [];

  // The server looked at the result: its suggestions come from GET /api/images/:id/recommendations?of=result.
  await expect(page.getByRole('heading', { name: 'Suggested for this picture' })).toBeVisible();
  await expect(page.getByText('Looking at the picture...')).toHaveCount(0, { timeout: 60_000 });

  // Step 2 works on the result of step 1.
  await page.getByTestId('editor-tool-background-removal').click();
  await page.getByRole('button', { name: 'Process Image' }).click();
  await expect(steps).toHaveCount(3, { timeout: 150_000 });
  const ids = new URL(page.url()).searchParams.get('steps')?.split(',').map(Number) ?? [];
  expect(ids[0]).toBe(firstId);
  const second = (await (await page.request.get(`/api/images/${ids[1]}`)).json()) as ImageJob;
  expect(second.sourceImageId).toBe(firstId);
  await expect(steps.nth(2)).toContainText('Background Removal');
  await expect(steps.nth(2)).toHaveAttribute('aria-current', 'step');

  expect(await seriousViolations(page)).toEqual([]);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: info.outputPath(`editor-steps-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  // Back to step 1: its result is shown again; a reload keeps the steps.
  await steps.nth(1).click();
  await expect(steps.nth(1)).toHaveAttribute('aria-current', 'step');
  await expect(page.getByTestId('editor-current')).toHaveAttribute('src', `/api/images/${firstId}/result/0`);
  await page.reload();
  await expect(steps).toHaveCount(3);

  const download = page.waitForEvent('download');
  await page.getByTestId('editor-download').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`background-removal-${ids[1]}.png`);
  const saved = fs.readFileSync(await file.path());
  expect(saved.equals(await bytesOf(page, `/api/images/${ids[1]}/result/0`))).toBe(true);
});

test('Cancel on the tool page stops a running job: it shows as cancelled', async ({ page }, info) => {
  const photo = await resizedPhoto('chelsea.png', 3000, 2000, info.outputDir, 'jpeg');
  await page.goto('/features/denoising');
  await choosePhoto(page, photo);
  await page.getByRole('button', { name: 'Process Image' }).click();
  const id = await jobInUrl(page);
  await page.getByTestId('cancel-job').click();
  await expect(page.getByTestId('job-error')).toHaveText('Cancelled');
  await expect(page.getByTestId('job-progress')).toHaveCount(0);
  const job = (await (await page.request.get(`/api/images/${id}`)).json()) as ImageJob;
  expect([job.status, job.metadata.errorCode]).toEqual(['failed', 'CANCELLED']);
});

test('Cancel on the result page stops a running job: the page says it was cancelled (not that it failed)', async ({
  page,
}, info) => {
  const photo = await resizedPhoto('chelsea.png', 3000, 2000, info.outputDir, 'jpeg');
  await page.goto('/features/denoising');
  await choosePhoto(page, photo);
  await page.getByRole('button', { name: 'Process Image' }).click();
  const id = await jobInUrl(page);
  await page.goto(`/result?id=${id}`);
  await expect(page.getByTestId('result-pending')).toBeVisible();
  await page.getByTestId('cancel-job').click();
  await expect(page.getByTestId('job-gone')).toHaveAttribute('data-state', 'cancelled');
  await expect(page.getByRole('heading', { name: 'Cancelled' })).toBeVisible();
  await expect(page.getByText('Processing failed')).toHaveCount(0);
  await expect(page.getByTestId('result-pending')).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('result-cancelled.png') });
  // No dead end: the tool is one click away, on the same photo and settings.
  await page.getByRole('link', { name: 'Try again in Denoising' }).click();
  await expect(page).toHaveURL(new RegExp(`/features/denoising\\?job=${id}$`));
  await expect(page.getByRole('img', { name: 'Chosen photo' })).toBeVisible();
  const job = (await (await page.request.get(`/api/images/${id}`)).json()) as {
    status: string;
    metadata: { errorCode?: string };
  };
  expect([job.status, job.metadata.errorCode]).toEqual(['failed', 'CANCELLED']);
});
