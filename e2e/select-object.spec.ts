import sharp from 'sharp';
import { touchingPairs, union } from '../test-support/touching-pairs';
import { expect, type Page, test } from './fixtures';
import { allowUse, choosePhoto, expectResult, fixture, painted, skipTutorials } from './tool-support';

/**
 * Select object in the mask editor, against the real server and model: open the photo (it is prepared for Select
 * object's first click), click the cup in coffee.png, see its mask, erase part of it, undo and redo across the
 * selection, submit and get a result. The cup's hand-traced outline (fixtures/masks/coffee.png) is the truth the
 * selection is measured against.
 */

/** The cup's truth (600x400, 1 = cup) and the cup pixel nearest its centroid, as shares of the photo. */
async function cupTruth() {
  const { data, info } = await sharp(fixture('masks/coffee.png'))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (let i = 0; i < data.length; i++) {
    if ((data[i] as number) < 128) continue;
    sx += i % info.width;
    sy += Math.floor(i / info.width);
    n++;
  }
  return { data, width: info.width, height: info.height, centre: [sx / n / info.width, sy / n / info.height] as const };
}

function iou(a: Uint8Array, truth: Buffer): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    const t = (truth[i] as number) >= 128;
    if (a[i] && t) inter++;
    if (a[i] || t) union++;
  }
  return inter / union;
}

async function openEditor(page: Page, photo: Parameters<typeof choosePhoto>[1] = fixture('coffee.png')) {
  await skipTutorials(page);
  await allowUse(page, 'object-removal');
  await page.goto('/features/object-removal');
  await choosePhoto(page, photo);
  const canvas = page.getByTestId('mask-canvas');
  await expect(canvas).toBeVisible();
  await canvas.scrollIntoViewIfNeeded();
  return canvas;
}

test('select object: click the cup, see its mask, erase part, undo across it, submit and get a result', async ({
  page,
}) => {
  // The model runs on a shared 2-core machine: a selection can take minutes there.
  test.setTimeout(900_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const truth = await cupTruth();
  // Opening the photo in the editor sends it to be prepared for Select object's first click, before the tool is
  // chosen.
  const prepared = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/select-object/prepare', {
    timeout: 600_000,
  });
  const canvas = await openEditor(page);
  expect((await prepared).status()).toBe(200);
  const selectTool = page.getByRole('button', { name: 'Select object' });
  await selectTool.click();
  await expect(selectTool).toHaveAttribute('aria-pressed', 'true');

  const box = await canvas.boundingBox();
  if (!box) throw new Error('no canvas box');
  const at = (fx: number, fy: number) => [box.x + box.width * fx, box.y + box.height * fy] as const;
  // The click sends coordinates only: the photo was sent once, when the editor opened it.
  const selected = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/select-object/prompt', {
    timeout: 600_000,
  });
  await page.mouse.click(...at(...truth.centre));
  // Busy while the server works, then the cup's mask on the canvas.
  await expect(page.getByTestId('selecting')).toBeVisible();
  expect((await selected).status()).toBe(200);
  await expect(page.getByTestId('selecting')).toHaveCount(0);
  await expect(page.getByTestId('mask-status')).toHaveText(/Object selected/);
  const mask = await painted(canvas, truth.width, truth.height);
  expect(iou(mask, truth.data), 'the selection is the cup').toBeGreaterThan(0.85);
  await page.screenshot({ path: 'test-output/screenshots/select-object-1280.png', fullPage: true });

  // Refine: erase a stroke through the saucer's left rim (inside the selection).
  const rim = [0.2, 0.62] as const;
  const i = (fx: number, fy: number) => Math.round(fy * truth.height) * truth.width + Math.round(fx * truth.width);
  expect(mask[i(...rim)], 'the rim was selected').toBe(1);
  await page.getByRole('button', { name: 'Eraser' }).click();
  await page.mouse.move(...at(rim[0] - 0.03, rim[1]));
  await page.mouse.down();
  await page.mouse.move(...at(rim[0] + 0.03, rim[1]), { steps: 8 });
  await page.mouse.up();
  expect((await painted(canvas, truth.width, truth.height))[i(...rim)], 'erased').toBe(0);

  // Undo reaches back across the selection and Redo brings it back: the mask is the same as before.
  const undo = page.getByRole('button', { name: 'Undo' });
  await undo.click();
  await undo.click();
  expect(
    (await painted(canvas, truth.width, truth.height)).reduce((n, v) => n + v, 0),
    'nothing left',
  ).toBe(0);
  await expect(undo).toBeDisabled();
  await page.keyboard.press('Control+Shift+z');
  await page.keyboard.press('Control+Shift+z');
  const again = await painted(canvas, truth.width, truth.height);
  expect(again[i(...rim)], 'the erasing is back').toBe(0);
  expect(again[i(...truth.centre)], 'the selection is back').toBe(1);

  // Submit: the server stores the selection as the mask and removes the cup.
  const created = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/images',
  );
  await page.getByRole('button', { name: 'Process Image' }).click();
  expect((await created).status()).toBe(201);
  const card = await expectResult(page, 600_000);
  await expect(card.getByRole('img', { name: 'Result' })).toBeVisible();
});

test('select object: two touching cups, a click selects one alone, Larger both, a point taken away leaves one', async ({
  page,
}) => {
  test.setTimeout(900_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const [pair] = await touchingPairs('tuning');
  if (!pair) throw new Error('no pair');
  const [back, front] = pair.objects as [NonNullable<(typeof pair.objects)[0]>, NonNullable<(typeof pair.objects)[0]>];
  const canvas = await openEditor(page, { name: 'cups.png', mimeType: 'image/png', buffer: pair.image });
  await page.getByRole('button', { name: 'Select object' }).click();
  // Where a photo pixel is on the screen now (clicking a button below the photo may scroll the page).
  const at = async (p: { x: number; y: number }) => {
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    if (!box) throw new Error('no canvas box');
    return [box.x + (box.width * (p.x + 0.5)) / pair.width, box.y + (box.height * (p.y + 0.5)) / pair.height] as const;
  };
  const answered = () =>
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/select-object/prompt', { timeout: 600_000 });
  const mask = () => painted(canvas, pair.width, pair.height);
  const share = (m: Uint8Array, truth: Buffer) => {
    let n = 0;
    let t = 0;
    for (let i = 0; i < truth.length; i++) {
      if (!truth[i]) continue;
      t++;
      n += m[i] as number;
    }
    return n / t;
  };

  // One click on the back cup: that cup, not the one it touches.
  let done = answered();
  await page.mouse.click(...(await at(back.point)));
  expect((await done).status()).toBe(200);
  await expect(page.getByTestId('mask-status')).toHaveText(/Object selected/);
  let m = await mask();
  expect(iou(m, back.truth), 'the clicked cup').toBeGreaterThan(0.8);
  expect(share(m, front.truth), 'not its neighbour').toBeLessThan(0.1);
  await page.screenshot({ path: 'test-output/screenshots/select-object-pair-one.png' });

  // Larger: both cups.
  done = answered();
  await page.getByRole('button', { name: 'Larger' }).click();
  expect((await done).status()).toBe(200);
  await expect(page.getByTestId('mask-status')).toHaveText(/larger selection/);
  m = await mask();
  expect(iou(m, union(back.truth, front.truth)), 'the pair').toBeGreaterThan(0.8);
  await page.screenshot({ path: 'test-output/screenshots/select-object-pair-both.png' });

  // Alt-click on the other cup takes it away again; Undo then removes the selection whole.
  done = answered();
  await page.keyboard.down('Alt');
  await page.mouse.click(...(await at(front.point)));
  await page.keyboard.up('Alt');
  expect((await done).status()).toBe(200);
  await expect(page.getByTestId('mask-status')).toHaveText(/Taken away/);
  m = await mask();
  expect(share(m, front.truth), 'the cup taken away').toBeLessThan(0.2);
  expect(share(m, back.truth), 'the clicked cup stays').toBeGreaterThan(0.9);
  await page.screenshot({ path: 'test-output/screenshots/select-object-pair-taken.png' });
  await page.getByRole('button', { name: 'Undo' }).click();
  expect(
    (await mask()).reduce((n, v) => n + v, 0),
    'nothing left',
  ).toBe(0);
});

test('select object with the keyboard on a phone-sized screen', async ({ page }) => {
  test.setTimeout(900_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const truth = await cupTruth();
  const canvas = await openEditor(page);
  await page.getByRole('button', { name: 'Select object' }).click();
  // The photo takes focus in select mode; the crosshair starts in the middle, which is on the cup's saucer.
  await canvas.focus();
  await expect(canvas).toBeFocused();
  await expect(canvas).toHaveAccessibleName(/arrow keys move the crosshair and Enter selects/);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('selecting')).toBeVisible();
  await expect(page.getByTestId('mask-status')).toHaveText(/Object selected/, { timeout: 600_000 });
  const mask = await painted(canvas, truth.width, truth.height);
  expect(iou(mask, truth.data)).toBeGreaterThan(0.85);
  await page.screenshot({ path: 'test-output/screenshots/select-object-390.png', fullPage: true });
});
