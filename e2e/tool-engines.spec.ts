import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { expect, type Page, testOnOwnServer } from './fixtures';
import { allowUse, choosePhoto, fixture, resizedPhoto, skipTutorials, toast } from './tool-support';

/**
 * Tests that need a server configured unlike the shared one: super-resolution on (the shared server switches it
 * off for the status test), and a Replicate token so that the prompt tools' pages open. Nothing here reaches a
 * provider: the base URL points at a closed local port, and every prompt test stops at the browser's checks.
 */
const test = testOnOwnServer({
  REPLICATE_API_TOKEN: 'e2e-no-provider',
  REPLICATE_API_BASE_URL: 'http://127.0.0.1:9',
});

test.describe.configure({ mode: 'serial' });

const open = async (page: Page, route: string) => {
  await skipTutorials(page);
  await page.goto(route);
};

/** Records whether the page sent a job: client-side checks must stop before that. */
function watchPosts(page: Page): () => boolean {
  let posted = false;
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/images') posted = true;
  });
  return () => posted;
}

test('text2img: catalogue controls, and an empty prompt is refused in the browser', async ({ page }) => {
  await allowUse(page, 'text2img');
  const posted = watchPosts(page);
  await open(page, '/features/text2img');
  await expect(page.getByLabel('Prompt')).toHaveAttribute('required', '');
  await expect(page.getByText('Enter a prompt before generating')).toBeVisible();
  await expect(page.getByLabel('Width')).toHaveValue('768');
  await expect(page.getByLabel('Height')).toHaveValue('768');
  await expect(page.getByLabel('Steps')).toHaveValue('25');
  await expect(page.getByLabel('Apply watermark')).not.toBeChecked();
  await expect(page.getByLabel('Refiner')).toHaveValue('expert_ensemble_refiner');
  await expect(page.getByTestId('upload-photo')).toHaveCount(0);
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(toast(page, 'Error', 'Please enter a prompt before generating')).toBeVisible();
  // Out of range: the server's own rule and wording, from the shared catalogue.
  await page.getByLabel('Prompt').fill('a lighthouse at dawn');
  await page.getByLabel('Width').fill('2000');
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(toast(page, 'Error', 'Invalid value for "width": must be between 256 and 1024')).toBeVisible();
  expect(posted()).toBe(false);
});

test('text-to-image-diffusion: guidance 1-20 step 0.5 default 7.5, steps 10-150 default 50, one output', async ({
  page,
}) => {
  await allowUse(page, 'text-to-image-diffusion');
  await open(page, '/features/text-to-image-diffusion');
  const guidance = page.getByRole('slider', { name: 'Guidance scale' });
  await expect(guidance).toHaveAttribute('aria-valuenow', '7.5');
  await expect(guidance).toHaveAttribute('aria-valuemin', '1');
  await expect(guidance).toHaveAttribute('aria-valuemax', '20');
  await guidance.focus();
  await page.keyboard.press('ArrowRight');
  await expect(guidance).toHaveAttribute('aria-valuenow', '8');
  const steps = page.getByRole('slider', { name: 'Inference steps' });
  await expect(steps).toHaveAttribute('aria-valuenow', '50');
  await expect(steps).toHaveAttribute('aria-valuemin', '10');
  await expect(steps).toHaveAttribute('aria-valuemax', '150');
  await expect(page.getByLabel('Outputs')).toHaveValue('1');
  await expect(page.getByLabel('Scheduler')).toHaveValue('K_EULER');
});

test("style transfer: defaults, and a prompt without 'img' is refused in the browser", async ({ page }) => {
  await allowUse(page, 'style-transfer');
  const posted = watchPosts(page);
  await open(page, '/features/style-transfer');
  await expect(page.getByRole('textbox', { name: 'Prompt', exact: true })).toHaveValue(/\bimg\b/);
  await expect(page.getByLabel('Negative prompt')).toHaveValue(/worst quality/);
  await expect(page.getByRole('slider', { name: 'Style strength' })).toHaveAttribute('aria-valuenow', '35');
  await expect(page.getByRole('slider', { name: 'Steps' })).toHaveAttribute('aria-valuenow', '50');
  await expect(page.getByLabel('Outputs')).toHaveValue('1');
  await expect(page.getByText("The prompt must contain the word 'img'")).toBeVisible();
  await choosePhoto(page, fixture('astronaut.png'));
  await page.getByRole('textbox', { name: 'Prompt', exact: true }).fill('A portrait in the style of a watercolour');
  await page.getByRole('button', { name: 'Process Image' }).click();
  await expect(toast(page, 'Error', "The prompt must contain the word 'img' exactly once")).toBeVisible();
  expect(posted()).toBe(false);
});

test('a result larger than the server makes is refused with the reason before anything is sent', async ({
  page,
}, info) => {
  await allowUse(page, 'super-resolution');
  // 4x of a 1600 px photo would be 6400x6400 (41 MP), past the 40 MP output limit: the page applies the server's
  // rule and sends nothing (the server's own 422 is tested in server/test/pipeline/output-limit.test.ts).
  const photo = await resizedPhoto('astronaut.png', 1600, 1600, info.outputDir);
  await open(page, '/features/super-resolution');
  const posted = watchPosts(page);
  await choosePhoto(page, photo);
  await page.getByLabel('Scale').selectOption('4');
  await page.getByRole('button', { name: 'Process Image' }).click();
  const reason = /The result would be 6400x6400 pixels, larger than the 40 megapixels this server can make/;
  await expect(toast(page, 'Error', reason)).toBeVisible();
  await expect(page.getByTestId('job-progress')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Process Image' })).toBeEnabled();
  await expect(page.getByTestId('result-card')).toHaveCount(0);
  expect(posted()).toBe(false);
});

/** The newest mask the server stored (storage keeps each job's inputs under originals/<uuid>/). */
function newestStoredMask(dataDir: string): string {
  const root = path.join(dataDir, 'files', 'originals');
  const masks = fs
    .readdirSync(root)
    .map((d) => path.join(root, d, 'mask.png'))
    .filter((f) => fs.existsSync(f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  if (!masks[0]) throw new Error('no stored mask');
  return masks[0];
}

test('mask editor: paint, erase, undo and redo; the server stores a mask with exactly the painted pixels', async ({
  page,
  ownServer,
}) => {
  test.setTimeout(180_000);
  await allowUse(page, 'object-removal');
  await open(page, '/features/object-removal');
  await choosePhoto(page, fixture('coffee.png'));
  const canvas = page.getByTestId('mask-canvas');
  await expect(canvas).toBeVisible();
  await expect(page.getByRole('img', { name: /paint over the area to remove/ })).toBeVisible();
  const undo = page.getByRole('button', { name: 'Undo' });
  const redo = page.getByRole('button', { name: 'Redo' });
  await expect(undo).toBeDisabled();

  await canvas.scrollIntoViewIfNeeded();
  const at = async (fx: number, fy: number) => {
    const b = await canvas.boundingBox();
    if (!b) throw new Error('no canvas box');
    return [b.x + b.width * fx, b.y + b.height * fy] as const;
  };
  const stroke = async (from: [number, number], to: [number, number]) => {
    const [x0, y0] = await at(...from);
    const [x1, y1] = await at(...to);
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    await page.mouse.move(x1, y1, { steps: 12 });
    await page.mouse.up();
  };

  // 1: a band across the top quarter.
  await stroke([0.2, 0.25], [0.8, 0.25]);
  await expect(undo).toBeEnabled();
  // 2: erase a hole in the middle of it, while zoomed in (the pointer maps through the zoom).
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(async () => (await canvas.boundingBox())?.width).toBeGreaterThan(620);
  await page.getByRole('button', { name: 'Eraser' }).click();
  await stroke([0.48, 0.25], [0.52, 0.25]);
  await page.getByRole('button', { name: 'Reset zoom' }).click();
  await expect.poll(async () => Math.round((await canvas.boundingBox())?.width ?? 0)).toBeLessThanOrEqual(600);
  // 3: a second band, painted then undone with Ctrl+Z; redo brings it back, the Undo button takes it away again.
  await page.getByRole('button', { name: 'Brush' }).click();
  await stroke([0.2, 0.75], [0.8, 0.75]);
  await page.keyboard.press('Control+z');
  await expect(redo).toBeEnabled();
  await page.keyboard.press('Control+Shift+z');
  await expect(redo).toBeDisabled();
  await undo.click();

  const created = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/images',
  );
  await page.getByRole('button', { name: 'Process Image' }).click();
  expect((await created).status()).toBe(201);

  const stored = newestStoredMask(ownServer.dataDir);
  const { data, info } = await sharp(stored).greyscale().raw().toBuffer({ resolveWithObject: true });
  // The mask is drawn at the photo's size (600x400), white = remove.
  expect([info.width, info.height]).toEqual([600, 400]);
  const v = (fx: number, fy: number) => data[Math.round(fy * 400) * 600 + Math.round(fx * 600)] as number;
  expect(v(0.3, 0.25), 'painted band').toBe(255);
  expect(v(0.7, 0.25), 'painted band').toBe(255);
  expect(v(0.5, 0.25), 'erased hole').toBe(0);
  expect(v(0.5, 0.75), 'undone band').toBe(0);
  expect(v(0.1, 0.5), 'never painted').toBe(0);
  let white = 0;
  let other = 0;
  for (const p of data) {
    if (p === 255) white++;
    else if (p !== 0) other++;
  }
  expect(other, 'a binary mask').toBe(0);
  // About 360 x 30 px of band minus the hole.
  expect(white / (600 * 400)).toBeGreaterThan(0.03);
  expect(white / (600 * 400)).toBeLessThan(0.06);
});

test('mask editor on a touch screen: one finger paints', async ({ browser, ownServer }) => {
  const context = await browser.newContext({
    hasTouch: true,
    viewport: { width: 390, height: 800 },
    baseURL: ownServer.url,
  });
  const page = await context.newPage();
  await allowUse(page, 'object-removal');
  await open(page, '/features/object-removal');
  await choosePhoto(page, fixture('coffee.png'));
  const canvas = page.getByTestId('mask-canvas');
  await canvas.scrollIntoViewIfNeeded();
  const b = await canvas.boundingBox();
  if (!b) throw new Error('no canvas box');
  await page.touchscreen.tap(b.x + b.width / 2, b.y + b.height / 2);
  const alpha = await canvas.evaluate((c: HTMLCanvasElement) => {
    const ctx = c.getContext('2d') as CanvasRenderingContext2D;
    return ctx.getImageData(c.width / 2, c.height / 2, 1, 1).data[3];
  });
  expect(alpha).toBeGreaterThan(0);
  await expect(page.getByRole('button', { name: 'Undo' })).toBeEnabled();
  await context.close();
});
