import sharp from 'sharp';
import { expect, test } from './fixtures';
import { allowUse, choosePhoto, expectResult, fixture, painted, skipTutorials } from './tool-support';

/**
 * Fit mask to object, against the real server: brush over most of the cup in coffee.png, fit the mask (the server's
 * GrabCut grows it to the cup), see it cover the cup, go back to the painted mask, fit again, and process. The cup's
 * hand-traced outline (fixtures/masks/coffee.png) is what the masks are measured against; fitting uses no daily use,
 * nor does 'Try another fill' afterwards, which gives another image.
 */

async function cupTruth() {
  const { data, info } = await sharp(fixture('masks/coffee.png'))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let [x0, y0, x1, y1] = [info.width, info.height, 0, 0];
  for (let i = 0; i < data.length; i++) {
    if ((data[i] as number) < 128) continue;
    const x = i % info.width;
    const y = Math.floor(i / info.width);
    [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  }
  return { data, width: info.width, height: info.height, box: { x0, y0, x1, y1 } };
}

/** Share of the truth's pixels the mask covers. */
function covered(mask: Uint8Array, truth: Buffer): number {
  let inside = 0;
  let all = 0;
  for (let i = 0; i < mask.length; i++) {
    if ((truth[i] as number) < 128) continue;
    all++;
    if (mask[i]) inside++;
  }
  return inside / all;
}

const count = (m: Uint8Array) => m.reduce((n, v) => n + v, 0);

test('fit mask to object: brush over most of the cup, fit, see the cup covered, go back, fit again, process, try another fill', async ({
  page,
}) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const truth = await cupTruth();
  await skipTutorials(page);
  await allowUse(page, 'object-removal');
  await page.goto('/features/object-removal');
  await choosePhoto(page, fixture('coffee.png'));
  const canvas = page.getByTestId('mask-canvas');
  const editor = page.getByTestId('mask-editor');
  await expect(canvas).toBeVisible();
  await canvas.scrollIntoViewIfNeeded();
  await expect(page.getByTestId('uses-left')).toHaveText('2 of 2 uses left today');
  const fitButton = page.getByRole('button', { name: 'Fit mask to object' });
  await expect(fitButton, 'nothing painted yet').toHaveCount(0);

  // Brush strokes across the middle of the cup, short of its outline on every side (as a hurried visitor paints).
  const box = await canvas.boundingBox();
  if (!box) throw new Error('no canvas box');
  const at = (x: number, y: number) =>
    [box.x + (box.width * x) / truth.width, box.y + (box.height * y) / truth.height] as const;
  const { x0, y0, x1, y1 } = truth.box;
  const [w, h] = [x1 - x0, y1 - y0];
  for (let y = y0 + 0.18 * h; y <= y1 - 0.18 * h; y += 22) {
    await page.mouse.move(...at(x0 + 0.18 * w, y));
    await page.mouse.down();
    await page.mouse.move(...at(x1 - 0.18 * w, y), { steps: 10 });
    await page.mouse.up();
  }
  const brushed = await painted(canvas, truth.width, truth.height);
  const brushedCover = covered(brushed, truth.data);
  expect(brushedCover, 'the strokes leave the cup’s edges').toBeLessThan(0.7);
  await editor.screenshot({ path: 'test-output/screenshots/mask-fit-1-painted.png' });

  // Fit: busy (Process waits) while the server works, then the fitted mask on the canvas.
  const process = page.getByRole('button', { name: 'Process Image' });
  const fitted = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/refine-mask', { timeout: 300_000 });
  await fitButton.click();
  await expect(page.getByTestId('fitting')).toBeVisible();
  await expect(process).toBeDisabled();
  expect((await fitted).status()).toBe(200);
  const back = page.getByRole('button', { name: 'Use my painted mask' });
  await expect(back).toBeVisible();
  await expect(process).toBeEnabled();
  const fit = await painted(canvas, truth.width, truth.height);
  const fitCover = covered(fit, truth.data);
  console.log(`cup covered: brushed ${brushedCover.toFixed(3)}, fitted ${fitCover.toFixed(3)}`);
  expect(fitCover, 'the fitted mask covers the cup').toBeGreaterThan(0.95);
  for (let i = 0; i < brushed.length; i++) if (brushed[i] && !fit[i]) throw new Error('a painted pixel was dropped');
  // It reaches the cup, not the whole photo.
  expect(count(fit)).toBeLessThan(1.6 * count(Uint8Array.from(truth.data, (v) => (v >= 128 ? 1 : 0))));
  await editor.screenshot({ path: 'test-output/screenshots/mask-fit-2-fitted.png' });

  // Back to what was painted; then fit again.
  await back.click();
  await expect(fitButton).toBeVisible();
  // (Strokes drawn again as whole paths differ from the live drawing by a few antialiased edge pixels.)
  const again = await painted(canvas, truth.width, truth.height);
  let differ = 0;
  for (let i = 0; i < again.length; i++) if (again[i] !== brushed[i]) differ++;
  expect(differ, 'the painted mask is back').toBeLessThan(0.002 * count(brushed));
  await fitButton.click();
  await expect(back).toBeVisible({ timeout: 300_000 });
  expect(covered(await painted(canvas, truth.width, truth.height), truth.data)).toBeGreaterThan(0.95);
  // Fitting twice cost no use.
  await expect(page.getByTestId('uses-left')).toHaveText('2 of 2 uses left today');

  const created = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/images',
  );
  await process.click();
  expect((await created).status()).toBe(201);
  const card = await expectResult(page, 300_000);
  await expect(card.getByRole('img', { name: 'Result' })).toBeVisible();
  await expect(page.getByTestId('uses-left')).toHaveText('1 of 2 uses left today');
  await page.screenshot({ path: 'test-output/screenshots/mask-fit-3-result.png', fullPage: true });

  // Another try of the same photo and fitted mask: another fill, kept beside the first, and no second use.
  const resultImage = card.getByRole('img', { name: 'Result' });
  const pixels = async () => {
    const src = (await resultImage.getAttribute('src')) as string;
    const bytes = await page.evaluate(
      async (url) => Array.from(new Uint8Array(await (await fetch(url)).arrayBuffer())),
      src,
    );
    return { src, raw: await sharp(Buffer.from(bytes)).removeAlpha().raw().toBuffer() };
  };
  const first = await pixels();
  await page.getByRole('button', { name: 'Try another fill' }).click();
  const tries = page.getByRole('navigation', { name: 'Tries' });
  await expect(tries.getByRole('button', { name: /Try 2/ })).toBeVisible({ timeout: 300_000 });
  await expect(resultImage).not.toHaveAttribute('src', first.src);
  const second = await pixels();
  let changed = 0;
  for (let i = 0; i < first.raw.length; i++) if (first.raw[i] !== second.raw[i]) changed++;
  console.log(`another fill: ${changed} channel values differ`);
  expect(changed, 'another fill').toBeGreaterThan(1000);
  await expect(page.getByTestId('uses-left')).toHaveText('1 of 2 uses left today');
  await page.screenshot({ path: 'test-output/screenshots/mask-fit-4-another-try.png', fullPage: true });
});
