import fs from 'node:fs';
import path from 'node:path';
import type { Health, ImageJob } from '@ai-editor/core';
import sharp from 'sharp';
import { signIn } from './auth-support';
import { expect, type Page, test } from './fixtures';
import { ROOT, type RunningServer, startServer } from './server';
import { expectResult, fixture, noisyPhoto, skipTutorials } from './tool-support';

/**
 * The README's pictures (`npm run docs:screenshots`): screens of the app and a before/after strip per local tool, on
 * the fixture photos, made by the real app and engines so they stay current. Written small (WebP) to docs/images/.
 * Skipped in the normal browser run.
 */

const OUT = path.join(ROOT, 'docs/images');
const port = Number(process.env.E2E_PORT) + 40;
let server: RunningServer;

test.skip(!process.env.README_SHOTS, 'made by `npm run docs:screenshots`');
// One worker (`--workers=1` in the npm script): the tests share the file's server.
test.describe.configure({ timeout: 900_000 });
test.use({ baseURL: `http://127.0.0.1:${port}` });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  fs.mkdirSync(OUT, { recursive: true });
  // Every local engine on (super resolution included), its own sign-in emulator.
  server = await startServer({ port, env: { AUTH_EMULATOR_PORT: String(port + 1) } });
});
test.afterAll(async () => {
  await server?.stop();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
});

/** A screenshot as a small WebP. */
async function save(png: Buffer, name: string, width?: number) {
  const image = sharp(png);
  if (width) image.resize({ width, withoutEnlargement: true });
  await image.webp({ quality: 72, effort: 6 }).toFile(path.join(OUT, `${name}.webp`));
}

async function shot(page: Page, name: string, opts: { fullPage?: boolean; width?: number } = {}) {
  await page.waitForTimeout(400); // entrance animations at rest
  await save(await page.screenshot({ fullPage: opts.fullPage }), name, opts.width);
}

test('screens: landing, a tool page with its result and compare slider, My images, a phone', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await skipTutorials(page);
  await page.goto('/');
  await expect(page.getByTestId('feature-grid').locator('[data-offered="true"]').first()).toBeVisible();
  // Tall enough for the hero and the tool grid below it.
  await page.setViewportSize({ width: 1280, height: 1400 });
  await shot(page, 'landing');
  await page.setViewportSize({ width: 1280, height: 800 });

  await signIn(page, 'Ada Lovelace');
  await page.goto('/features/background-removal');
  await page.getByLabel('Photo', { exact: true }).setInputFiles(fixture('chelsea.png'));
  await page.getByRole('button', { name: 'Process Image' }).click();
  const card = await expectResult(page, 300_000);
  await card.getByRole('img', { name: 'Result' }).waitFor();
  // The slider a little left of the middle, so both sides show.
  const handle = card.getByRole('slider', { name: 'Compare before and after' });
  await handle.focus();
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowLeft');
  await card.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, -90));
  await shot(page, 'tool-result');

  await page.goto('/features/pencil-sketch');
  await page.getByLabel('Photo', { exact: true }).setInputFiles(fixture('coffee.png'));
  await page.getByRole('button', { name: 'Process Image' }).click();
  await expectResult(page, 300_000);
  await page.goto('/my-images');
  await expect(page.locator('img[src*="/thumbnail"]').first()).toBeVisible({ timeout: 30_000 });
  await page.waitForTimeout(1500); // thumbnails
  await shot(page, 'my-images');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/features/face-enhancement');
  await page.getByLabel('Photo', { exact: true }).setInputFiles(fixture('astronaut.png'));
  await page.getByRole('button', { name: 'Process Image' }).click();
  const phoneCard = await expectResult(page, 300_000);
  await phoneCard.getByRole('img', { name: 'Result' }).waitFor();
  await phoneCard.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, -70));
  await shot(page, 'phone');
});

/** An input for each local tool, its fields, and how much of it to show. */
async function inputs(
  dir: string,
): Promise<Record<string, { photo: Buffer; fields?: Record<string, string>; mask?: Buffer }>> {
  const png = (file: string) => fs.readFileSync(file);
  const photo = (name: string) => fs.readFileSync(fixture(name));
  const svg = (w: number, h: number, body: string) =>
    sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#000"/>${body}</svg>`,
      ),
    )
      .png()
      .toBuffer();
  // Scribbles across the astronaut's photo, and the mask that covers them.
  const scribbles = `<path d="M60,80 C160,20 260,160 360,60 M80,420 C200,330 300,470 450,380 M420,140 L470,330" fill="none" stroke="#fff" stroke-width="9" stroke-linecap="round"/>`;
  const scribbled = await sharp(photo('astronaut.png'))
    .composite([
      {
        input: Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">${scribbles.replace('#fff', '#e11d48')}</svg>`,
        ),
      },
    ])
    .png()
    .toBuffer();
  const scribbleMask = await svg(512, 512, scribbles.replace('stroke-width="9"', 'stroke-width="15"'));
  // The spoon on the saucer.
  const spoon = await svg(
    600,
    400,
    `<path d="M412,62 L420,80 L388,232 L372,232 Z" fill="#fff"/><ellipse cx="366" cy="283" rx="48" ry="47" fill="#fff"/>`,
  );
  // An old photo: scratches and dust on the cameraman.
  const scratches = [
    '<path d="M90,0 Q110,250 80,512" stroke="#f5f5f5" stroke-width="2" fill="none"/>',
    '<path d="M300,20 Q290,200 320,420" stroke="#f5f5f5" stroke-width="1.5" fill="none"/>',
    '<path d="M420,60 Q440,300 410,500" stroke="#222" stroke-width="2" fill="none"/>',
    '<path d="M20,300 Q200,280 380,330" stroke="#eee" stroke-width="1.5" fill="none"/>',
    ...Array.from(
      { length: 40 },
      (_, i) =>
        `<circle cx="${(i * 97) % 512}" cy="${(i * 61) % 512}" r="${1 + (i % 3)}" fill="${i % 4 ? '#f0f0f0' : '#202020'}"/>`,
    ),
  ].join('');
  const oldPhoto = await sharp(photo('camera.png'))
    .composite([
      { input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">${scratches}</svg>`) },
    ])
    .greyscale()
    .png()
    .toBuffer();
  // The cat's face, small, to enlarge 4x.
  const catFace = await sharp(photo('chelsea.png'))
    .extract({ left: 150, top: 30, width: 160, height: 120 })
    .png()
    .toBuffer();
  // A dark, flat exposure of the launch.
  const dark = await sharp(photo('rocket.jpg')).linear(0.35, 0).gamma(2.2, 1.4).png().toBuffer();
  return {
    'face-enhancement': { photo: photo('astronaut.png') },
    'background-removal': { photo: photo('chelsea.png') },
    'super-resolution': { photo: catFace, fields: { scale: '4' } },
    denoising: { photo: png(await noisyPhoto('coffee.png', 25, dir)) },
    'object-removal': { photo: photo('coffee.png'), mask: spoon },
    'image-inpainting': { photo: scribbled, mask: scribbleMask },
    cartoonization: { photo: photo('chelsea.png') },
    'pencil-sketch': { photo: photo('coffee.png') },
    'hdr-enhancement': { photo: dark },
    'image-segmentation': { photo: photo('coffee.png') },
    'photo-restoration': { photo: oldPhoto },
  };
}

/** Before and after side by side, each fitted in 320x240 (the before enlarged as the after was, for a 4x upscale). */
async function strip(before: Buffer, after: Buffer): Promise<Buffer> {
  const box = { width: 320, height: 240, fit: 'inside' as const };
  const afterSide = await sharp(after).resize(box).png().toBuffer();
  const { width = 320, height = 240 } = await sharp(afterSide).metadata();
  const beforeSide = await sharp(before).resize({ width, height, fit: 'fill', kernel: 'nearest' }).png().toBuffer();
  // Transparent results sit on a light checkerboard, as the app shows them.
  const cell = 10;
  const squares = [];
  for (let y = 0; y < height; y += cell)
    for (let x = (y / cell) % 2 ? cell : 0; x < width; x += 2 * cell)
      squares.push(`<rect x="${x}" y="${y}" width="${cell}" height="${cell}"/>`);
  const checker = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/><g fill="#e5e7eb">${squares.join('')}</g></svg>`,
  );
  const gap = 8;
  return sharp({ create: { width: width * 2 + gap, height, channels: 3, background: '#ffffff' } })
    .composite([
      { input: beforeSide, left: 0, top: 0 },
      { input: checker, left: width + gap, top: 0 },
      { input: afterSide, left: width + gap, top: 0 },
    ])
    .png()
    .toBuffer();
}

test('a before/after strip for every local tool', async ({ page }, info) => {
  await page.goto('/');
  await signIn(page, 'Strip Maker');
  const health = (await (await page.request.get('/api/health')).json()) as Health;
  const local = health.engines.filter((e) => e.engine === 'local' && e.available).map((e) => e.operation);
  const made = await inputs(info.outputDir);
  expect(local.filter((id) => !made[id])).toEqual([]);
  for (const operation of local) {
    const input = made[operation] as (typeof made)[string];
    const res = await page.request.post(`/api/images?operation=${operation}`, {
      multipart: {
        operation,
        ...input.fields,
        file: { name: 'photo.png', mimeType: 'image/png', buffer: input.photo },
        ...(input.mask && { mask: { name: 'mask.png', mimeType: 'image/png', buffer: input.mask } }),
      },
    });
    expect(res.status(), `${operation}: ${await res.text()}`).toBe(201);
    let job = (await res.json()) as ImageJob;
    while (job.status === 'pending') {
      await page.waitForTimeout(500);
      job = (await (await page.request.get(`/api/images/${job.id}`)).json()) as ImageJob;
    }
    expect(job.status, `${operation}: ${job.metadata.error}`).toBe('completed');
    const after = await (await page.request.get(job.processedUrl as string)).body();
    await save(await strip(input.photo, after), `strip-${operation}`);
  }
  const files = fs.readdirSync(OUT).map((f) => fs.statSync(path.join(OUT, f)).size);
  console.log(`docs/images: ${files.length} files, ${Math.round(files.reduce((a, b) => a + b, 0) / 1024)} KB`);
});
