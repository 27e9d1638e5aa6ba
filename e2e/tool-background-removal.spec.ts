import sharp from 'sharp';
import { expect, test } from './fixtures';
import { allowUse, choosePhoto, expectResult, fixture, noisyPhoto, skipTutorials, TEXT, toast } from './tool-support';

test('background removal end to end: progress, result, compare slider, transparent PNG download', async ({ page }) => {
  test.setTimeout(300_000);
  await skipTutorials(page);
  await allowUse(page, 'background-removal');
  await page.goto('/features/background-removal');
  await choosePhoto(page, fixture('astronaut.png'));
  await expect(page.getByRole('img', { name: 'Chosen photo' })).toBeVisible();
  await page.getByRole('button', { name: 'Process Image' }).click();

  // Real progress from the job's metadata, not a bare spinner.
  const progress = page.getByTestId('job-progress');
  await expect(progress).toContainText(TEXT.processing);
  await expect(page.getByTestId('job-stage')).toHaveText(/\S/);
  await expect(page.getByRole('button', { name: 'Process Image' })).toBeDisabled();

  const card = await expectResult(page);
  await expect(progress).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Process Image' })).toBeEnabled();
  await expect(card.getByRole('img', { name: 'Before' })).toBeVisible();
  await expect(card.getByRole('img', { name: 'Result' })).toBeVisible();

  // Compare slider: keyboard arrows, then a drag.
  const handle = card.getByRole('slider');
  await expect(handle).toHaveAttribute('aria-valuenow', '50');
  await handle.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(handle).toHaveAttribute('aria-valuenow', '45');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(handle).toHaveAttribute('aria-valuenow', '55');
  const box = await handle.locator('..').boundingBox();
  if (!box) throw new Error('compare slider has no box');
  await page.mouse.move(box.x + box.width * 0.55, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2, { steps: 5 });
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => Number(await handle.getAttribute('aria-valuenow'))).toBeLessThan(25);

  // Download: saved as {operation}-{job}.png, a PNG with real transparency.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`background-removal-${new URL(page.url()).searchParams.get('job')}.png`);
  const saved = await download.path();
  const meta = await sharp(saved).metadata();
  expect(meta.format).toBe('png');
  expect([meta.width, meta.height, meta.channels]).toEqual([512, 512, 4]);
  const { data } = await sharp(saved).raw().toBuffer({ resolveWithObject: true });
  const alpha = (x: number, y: number) => data[(y * 512 + x) * 4 + 3] as number;
  expect(alpha(5, 5), 'corner is background').toBeLessThan(20);
  expect(alpha(230, 110), 'face is subject').toBeGreaterThan(235);
  let transparent = 0;
  for (let i = 3; i < data.length; i += 4) if ((data[i] as number) < 20) transparent++;
  expect(transparent / (512 * 512)).toBeGreaterThan(0.2);

  // A download that fails on the way: the catalogue's toast.
  await page.route('**/api/images/*/download/*', (route) => route.abort());
  await card.getByRole('button', { name: 'Download' }).click();
  await expect(toast(page, 'Download failed', 'Failed to download the image. Please try again.')).toBeVisible();
  await page.unroute('**/api/images/*/download/*');

  // The job's result page reopens the result.
  await card.getByRole('link', { name: 'Open result page' }).click();
  await expect(page).toHaveURL(/\/result\?id=\d+$/);
  const result = page.getByTestId('result-completed');
  await expect(result).toBeVisible();
  await expect(result).toContainText('Background Removal');
  await expect(result.getByRole('img', { name: 'Background Removal result' })).toBeVisible();
  const [again] = await Promise.all([
    page.waitForEvent('download'),
    result.getByRole('button', { name: 'Download' }).click(),
  ]);
  // Result page naming (docs/product.md#api-conventions): the tool and the job, the extension of the content type.
  expect(again.suggestedFilename()).toBe(`background-removal-${new URL(page.url()).searchParams.get('id')}.png`);
  await expect(toast(page, 'Success', 'Image downloaded successfully')).toBeVisible();
  await page.route('**/api/images/*/download/*', (route) => route.abort());
  await result.getByRole('button', { name: 'Download' }).click();
  await expect(toast(page, 'Error', 'Failed to download image. Please try again.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Home' })).toBeVisible();
});

test('several outputs show as a gallery; the analysis of the result suggests denoising and passes the result on', async ({
  page,
}, info) => {
  test.setTimeout(300_000);
  await skipTutorials(page);
  await allowUse(page, 'image-segmentation');
  // A grainy photo (sigma 20): segmentation returns an overlay and a mask; the analysis finds the grain.
  const grainy = await noisyPhoto('coffee.png', 20, info.outputDir);
  await page.goto('/features/segmentation');
  await choosePhoto(page, grainy);
  await page.getByRole('button', { name: 'Process Image' }).click();
  const card = await expectResult(page);

  const gallery = card.getByTestId('result-gallery');
  await expect(gallery.getByRole('button')).toHaveCount(2);
  await expect(card.getByRole('img', { name: 'Result 1 of 2' })).toBeVisible();
  await gallery.getByRole('button', { name: 'Show result 2' }).click();
  await expect(gallery.getByRole('button', { name: 'Show result 2' })).toHaveAttribute('aria-pressed', 'true');
  await expect(card.getByRole('img', { name: 'Result 2 of 2' })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^image-segmentation-\d+-2\.png$/);
  // The second output is the greyscale mask.
  expect((await sharp(await download.path()).metadata()).format).toBe('png');

  // The result page shows every output too, and names its downloads (docs/product.md#api-conventions).
  const href = (await card.getByRole('link', { name: 'Open result page' }).getAttribute('href')) as string;
  const resultPage = await page.context().newPage();
  await resultPage.goto(href);
  const done = resultPage.getByTestId('result-completed');
  await expect(done.getByRole('img', { name: 'Segmentation result 1 of 2' })).toBeVisible();
  await done.getByTestId('result-gallery').getByRole('button', { name: 'Show result 2' }).click();
  await expect(done.getByRole('img', { name: 'Segmentation result 2 of 2' })).toBeVisible();
  const [saved] = await Promise.all([
    resultPage.waitForEvent('download'),
    done.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(saved.suggestedFilename()).toBe(download.suggestedFilename());
  await resultPage.close();

  const recs = page.getByTestId('recommendations');
  await expect(recs.getByRole('heading', { name: 'Recommended for this photo' })).toBeVisible({ timeout: 90_000 });
  const denoise = recs.getByTestId('recommendation-denoising');
  await expect(denoise).toContainText('grain');
  const meter = denoise.getByRole('meter');
  // The overlay dims the background, so less grain is measured than in the photo: at least the 40% floor.
  expect(Number(await meter.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(40);
  await denoise.getByRole('link', { name: 'Try Now' }).click();
  const id = /id=(\d+)/.exec(href)?.[1];
  await expect(page).toHaveURL(new RegExp(`/features/denoising\\?from=${id}$`));
  // The denoising page starts with the result as its photo (taken from the server's storage, not uploaded).
  await expect(page.getByTestId('chosen-file')).toContainText(`result-${id}.png`);
  await expect(page.getByRole('img', { name: 'Chosen photo' })).toBeVisible();
});
