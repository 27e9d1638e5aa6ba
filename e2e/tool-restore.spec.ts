import type { ImageJob } from '@ai-editor/core';
import { signIn } from './auth-support';
import { expect, type Locator, type Page, test } from './fixtures';
import { choosePhoto, expectResult, fixture, resizedPhoto, skipTutorials } from './tool-support';

/**
 * A tool page shows what its job ran with, read back from the job: after a reload the photo, the settings and the
 * painted mask are there; a job it cannot show is said so; and the whole flow works on a phone.
 */

test.describe.configure({ timeout: 400_000 });

async function jobInUrl(page: Page): Promise<number> {
  await expect(page).toHaveURL(/[?&]job=\d+/);
  return Number(new URL(page.url()).searchParams.get('job'));
}

/** The painted share of the mask canvas at a point (fractions of its size): its alpha, 0 when unpainted. */
function maskAlpha(canvas: Locator, fx: number, fy: number): Promise<number> {
  return canvas.evaluate(
    (c: HTMLCanvasElement, [x, y]: [number, number]) =>
      (c.getContext('2d') as CanvasRenderingContext2D).getImageData(
        Math.round(x * (c.width - 1)),
        Math.round(y * (c.height - 1)),
        1,
        1,
      ).data[3] as number,
    [fx, fy] as [number, number],
  );
}

async function paintBand(page: Page, canvas: Locator, fy: number) {
  await canvas.scrollIntoViewIfNeeded();
  const b = await canvas.boundingBox();
  if (!b) throw new Error('no canvas box');
  await page.mouse.move(b.x + b.width * 0.2, b.y + b.height * fy);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width * 0.8, b.y + b.height * fy, { steps: 10 });
  await page.mouse.up();
}

test('a reload mid-job shows the original photo and the chosen settings, then the result', async ({ page }, info) => {
  await skipTutorials(page);
  await signIn(page);
  const photo = await resizedPhoto('chelsea.png', 1800, 1200, info.outputDir, 'jpeg');
  await page.goto('/features/denoising');
  await choosePhoto(page, photo);
  const strength = page.getByRole('slider', { name: 'Strength' });
  await strength.focus();
  for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowRight');
  await expect(strength).toHaveAttribute('aria-valuenow', '80');
  await page.getByRole('button', { name: 'Process Image' }).click();
  const id = await jobInUrl(page);

  await page.reload();
  expect(await jobInUrl(page)).toBe(id);
  // From the job, not from the page's memory: the photo as uploaded and the strength it runs with.
  await expect(page.getByRole('slider', { name: 'Strength' })).toHaveAttribute('aria-valuenow', '80');
  const chosen = page.getByRole('img', { name: 'Chosen photo' });
  await expect(chosen).toBeVisible();
  await expect.poll(() => chosen.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1800);
  const job = (await (await page.request.get(`/api/images/${id}`)).json()) as ImageJob;
  expect(job.status).toBe('pending');
  await expect(page.getByTestId('job-progress')).toBeVisible();
  await page.screenshot({ path: info.outputPath('reload-mid-job-1280.png'), fullPage: true });

  const card = await expectResult(page, 300_000);
  await expect(card.getByRole('img', { name: 'Result' })).toBeVisible();
  // The photo stays for another run with other settings, without choosing it again.
  await expect(page.getByRole('button', { name: 'Process Image' })).toBeEnabled();
  await expect(page.getByTestId('chosen-file')).toContainText(`photo-${id}.jpg`);
});

test('the mask a job ran with comes back with its photo after a reload', async ({ page }, info) => {
  await skipTutorials(page);
  await signIn(page);
  await page.goto('/features/object-removal');
  await choosePhoto(page, fixture('coffee.png'));
  const canvas = page.getByTestId('mask-canvas');
  await expect(canvas).toBeVisible();
  await paintBand(page, canvas, 0.3);
  expect(await maskAlpha(canvas, 0.5, 0.3)).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Process Image' }).click();
  const id = await jobInUrl(page);
  await expectResult(page, 300_000);

  await page.reload();
  await expect(page.getByRole('img', { name: /paint over the area to remove/ })).toBeVisible();
  await expect.poll(() => maskAlpha(canvas, 0.5, 0.3), { timeout: 20_000 }).toBeGreaterThan(0);
  expect(await maskAlpha(canvas, 0.5, 0.8)).toBe(0);
  expect(await maskAlpha(canvas, 0.05, 0.3)).toBe(0);
  await expect(page.getByRole('button', { name: 'Undo' })).toBeEnabled();
  await page.screenshot({ path: info.outputPath('mask-restored-1280.png'), fullPage: true });
  // Run again on the same photo and mask: a new job, nothing chosen again.
  const posted = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/api/images'));
  await page.getByRole('button', { name: 'Process Image' }).click();
  expect((await posted).status()).toBe(201);
  await expect.poll(() => jobInUrl(page)).not.toBe(id);
});

test('a tool page link to a job that is gone says so; unavailable tools show no "Why choose"; the drop overlay covers the page', async ({
  page,
}, info) => {
  await skipTutorials(page);
  await page.goto('/features/face-enhancement?job=987654');
  const gone = page.getByTestId('job-gone');
  await expect(gone).toHaveAttribute('data-state', 'not-available');
  await expect(gone).toContainText('This image is no longer available');
  await expect(page.getByText('Failed to fetch image status')).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('tool-gone-1280.png') });
  await gone.getByRole('button', { name: 'Start again here' }).click();
  await expect(page).toHaveURL(/\/features\/face-enhancement$/);
  await expect(page.getByTestId('job-gone')).toHaveCount(0);
  await expect(page.getByText('Drag & drop an image here, or click to select')).toBeVisible();

  // Files dragged over the page: the overlay covers the whole window.
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['x'], 'x.png', { type: 'image/png' }));
    window.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true }));
  });
  const overlay = page.getByTestId('page-drop-overlay');
  await expect(overlay).toBeVisible();
  const viewport = page.viewportSize() as { width: number; height: number };
  expect(await overlay.boundingBox()).toEqual({ x: 0, y: 0, width: viewport.width, height: viewport.height });

  await page.goto('/features/colorization');
  await expect(page.getByTestId('tool-unavailable')).toBeVisible();
  await expect(page.getByRole('heading', { name: /Why choose/ })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Tips' })).toBeVisible();
});

test('on a phone (390 px): tutorial dismissed first, upload, mask, result, download', async ({ page }, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto('/features/object-removal');
  // The first-visit tutorial is in the page, above the upload area, not over it.
  const tutorial = page.getByTestId('tutorial-card');
  const upload = page.getByTestId('upload-photo');
  await expect(tutorial).toBeVisible();
  const [t, u] = [await tutorial.boundingBox(), await upload.boundingBox()];
  if (!t || !u) throw new Error('no boxes');
  expect(t.y + t.height).toBeLessThanOrEqual(u.y);
  await page.screenshot({ path: info.outputPath('phone-1-tutorial-390.png') });
  await tutorial.getByRole('button', { name: 'Close tutorial' }).click();
  await expect(tutorial).toHaveCount(0);

  await choosePhoto(page, fixture('coffee.png'));
  const canvas = page.getByTestId('mask-canvas');
  await expect(canvas).toBeVisible();
  // The toolbar fits in two rows, its buttons still named.
  const toolbar = page.getByRole('toolbar', { name: 'Mask tools' });
  expect((await toolbar.boundingBox())?.height).toBeLessThanOrEqual(2 * 40 + 8);
  await expect(toolbar.getByRole('button', { name: 'Select object' })).toBeVisible();
  // The brush is measured in the photo's pixels: 30 px of a 600 px photo, whatever its size on this screen.
  await expect(page.getByRole('slider', { name: 'Brush size' })).toHaveAttribute('aria-valuenow', '30');
  await paintBand(page, canvas, 0.5);
  await canvas.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('phone-2-mask-390.png') });
  // A stroke 30 photo pixels wide: about 15 rows above and below its middle are painted, not 30.
  expect(await maskAlpha(canvas, 0.5, 0.5 + 10 / 400)).toBeGreaterThan(0);
  expect(await maskAlpha(canvas, 0.5, 0.5 + 22 / 400)).toBe(0);

  await page.getByRole('button', { name: 'Process Image' }).click();
  const id = await jobInUrl(page);
  const card = await expectResult(page, 300_000);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('phone-3-result-390.png') });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`object-removal-${id}.png`);
});
