import fs from 'node:fs';
import sharp from 'sharp';
import { expect, type Locator, type Page, test } from './fixtures';
import { allowUse, choosePhoto, expectResult, fixture, seriousViolations, skipTutorials } from './tool-support';

/**
 * Segmentation with the selection edited by clicks, against the real server and models: fixtures/dogs.jpg (two
 * dogs looking out of a window, one above the other) gives both dogs in the mask; in "Edit the selection" a click
 * on the upper dog takes it out, a second click adds it back, Undo takes it out again, and the downloads then give
 * the edited overlay and mask.
 */

/** Where each dog's head is, as shares of the photo (looked at on fixtures/dogs.jpg). */
const UPPER_HEAD = [0.42, 0.3] as const;
const LOWER_HEAD = [0.56, 0.55] as const;
/** The white cloth hanging in the window above the upper dog: not a subject. */
const CLOTH = [0.45, 0.08] as const;

/** A mask PNG's mean grey level over a 9x9 patch around a point (shares of the image). */
async function maskLevel(png: Buffer, [fx, fy]: readonly [number, number]): Promise<number> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const cx = Math.round(fx * info.width);
  const cy = Math.round(fy * info.height);
  let sum = 0;
  let n = 0;
  for (let y = cy - 4; y <= cy + 4; y++) {
    for (let x = cx - 4; x <= cx + 4; x++) {
      sum += data[y * info.width + x] as number;
      n++;
    }
  }
  return sum / n;
}

/** The canvas' mean brightness (R+G+B over 3) over a 9x9 patch around a point (shares of the canvas). */
async function canvasLevel(canvas: Locator, at: readonly [number, number]): Promise<number> {
  return canvas.evaluate((c: HTMLCanvasElement, [fx, fy]) => {
    const ctx = c.getContext('2d') as CanvasRenderingContext2D;
    const d = ctx.getImageData(Math.round(fx * c.width) - 4, Math.round(fy * c.height) - 4, 9, 9).data;
    let sum = 0;
    for (let i = 0; i < d.length; i += 4) sum += ((d[i] as number) + (d[i + 1] as number) + (d[i + 2] as number)) / 3;
    return sum / (d.length / 4);
  }, at);
}

/** Downloads the card's result `index` (0: overlay, 1: mask): its file name and bytes. */
async function download(page: Page, card: Locator, index: number) {
  await card.getByRole('button', { name: `Show result ${index + 1}` }).click();
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: 'Download' }).click(),
  ]);
  return { name: file.suggestedFilename(), bytes: fs.readFileSync(await file.path()) };
}

test('segmentation: both dogs, a click takes one out, another adds it back, Undo, and the downloads give the edit', async ({
  page,
}) => {
  // The models run on a shared 2-core machine: the job and the photo's preparation can take minutes there.
  test.setTimeout(1_200_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await skipTutorials(page);
  await allowUse(page, 'image-segmentation');
  await page.goto('/features/segmentation');
  await choosePhoto(page, fixture('dogs.jpg'));
  await page.getByRole('button', { name: 'Process Image' }).click();
  const card = await expectResult(page, 600_000);

  // The server's mask holds both dogs and not the cloth.
  const server = await download(page, card, 1);
  expect(server.name).toMatch(/^image-segmentation-\d+-2\.png$/);
  expect(await maskLevel(server.bytes, UPPER_HEAD), 'the upper dog is in the mask').toBeGreaterThan(200);
  expect(await maskLevel(server.bytes, LOWER_HEAD), 'the lower dog is in the mask').toBeGreaterThan(200);
  expect(await maskLevel(server.bytes, CLOTH), 'the cloth is not').toBeLessThan(55);
  await page.screenshot({ path: 'test-output/screenshots/segmentation-edit-1-result.png', fullPage: true });

  // Edit the selection: the photo is prepared for clicks, the overlay is on a canvas.
  const edit = card.getByRole('button', { name: 'Edit the selection' });
  const prepared = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/select-object/prepare', {
    timeout: 600_000,
  });
  await edit.click();
  expect((await prepared).status()).toBe(200);
  const status = card.getByRole('status');
  await expect(status).toHaveText(/Click an object/, { timeout: 60_000 });
  const canvas = card.getByTestId('selection-canvas');
  await expect(canvas).toBeVisible();
  const undo = card.getByRole('button', { name: 'Undo' });
  await expect(undo).toBeDisabled();
  const upperLit = await canvasLevel(canvas, UPPER_HEAD);
  const lowerLit = await canvasLevel(canvas, LOWER_HEAD);

  // A click on the upper dog (in the mask) takes it out: it is dimmed like the background, the lower dog is not.
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) throw new Error('no canvas box');
  const clickAt = ([fx, fy]: readonly [number, number]) =>
    page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
  await clickAt(UPPER_HEAD);
  await expect(status).toHaveText('Object taken out of the selection.', { timeout: 300_000 });
  expect(await canvasLevel(canvas, UPPER_HEAD), 'the upper dog is dimmed').toBeLessThan(upperLit * 0.5);
  expect(await canvasLevel(canvas, LOWER_HEAD), 'the lower dog is not').toBeCloseTo(lowerLit, 0);
  await page.screenshot({ path: 'test-output/screenshots/segmentation-edit-2-removed.png', fullPage: true });

  // A click on it again (now outside the mask) adds it back; Undo steps back to it taken out.
  await clickAt(UPPER_HEAD);
  await expect(status).toHaveText('Object added to the selection.', { timeout: 300_000 });
  expect(await canvasLevel(canvas, UPPER_HEAD), 'the upper dog is back').toBeGreaterThan(upperLit * 0.9);
  expect(await seriousViolations(page)).toEqual([]);
  await undo.click();
  await expect(status).toHaveText('Last click undone.');
  expect(await canvasLevel(canvas, UPPER_HEAD)).toBeLessThan(upperLit * 0.5);

  // Done: the result shows the edited overlay, and the downloads give the edited files under the server's names.
  await card.getByRole('button', { name: 'Done editing' }).click();
  await expect(canvas).toHaveCount(0);
  const mask = await download(page, card, 1);
  expect(mask.name).toBe(server.name);
  const meta = await sharp(mask.bytes).metadata();
  const photo = await sharp(fixture('dogs.jpg')).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(['png', photo.width, photo.height]);
  expect(await maskLevel(mask.bytes, UPPER_HEAD), 'the upper dog is out of the mask').toBeLessThan(55);
  expect(await maskLevel(mask.bytes, LOWER_HEAD), 'the lower dog stays').toBeGreaterThan(200);
  const overlay = await download(page, card, 0);
  expect(overlay.name).toMatch(/^image-segmentation-\d+\.png$/);
  await page.screenshot({ path: 'test-output/screenshots/segmentation-edit-3-done.png', fullPage: true });
  fs.writeFileSync('test-output/screenshots/segmentation-edit-mask.png', mask.bytes);
  fs.writeFileSync('test-output/screenshots/segmentation-edit-overlay.png', overlay.bytes);
});
