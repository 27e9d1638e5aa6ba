import fs from 'node:fs';
import type { ClientConfig } from '@ai-editor/core';
import sharp from 'sharp';
import { type Standin, startStandin } from '../server/test/replicate/standin';
import { emulatorAnswers } from '../test-support/emulator-accounts';
import { test as base, expect, freePortPair } from './fixtures';
import { type RunningServer, startServer } from './server';
import { allowUse, expectResult, fixture, skipTutorials } from './tool-support';

/**
 * The provider engine from the tool page: text2img through a local stand-in that speaks Replicate's API (no test
 * reaches the internet). The stand-in checks the request against SDXL's published input schema.
 */
const TOKEN = 'e2e-provider-token';
const test = base.extend<object, { provider: { server: RunningServer; standin: Standin } }>({
  provider: [
    async ({}, use) => {
      const standin = await startStandin({ token: TOKEN });
      const port = await freePortPair();
      const server = await startServer({
        port,
        env: {
          REPLICATE_API_TOKEN: TOKEN,
          REPLICATE_API_BASE_URL: standin.url,
          REPLICATE_POLL_MS: '50',
          AUTH_EMULATOR_PORT: String(port + 1),
        },
      });
      const config = (await (await fetch(`${server.url}/api/config`)).json()) as ClientConfig;
      if (config.auth.emulatorUrl) await emulatorAnswers(config.auth.emulatorUrl, 200_000);
      await use({ server, standin });
      await server.stop();
      await standin.close();
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 400_000 },
  ],
  baseURL: async ({ provider }, use) => use(provider.server.url),
});

test('text2img generates an image through the provider from the tool page', async ({ page, provider }) => {
  test.setTimeout(300_000);
  const output = await sharp({ create: { width: 768, height: 768, channels: 3, background: '#3070c0' } })
    .jpeg()
    .toBuffer();
  provider.standin.script({ files: [{ data: output, ext: 'jpg' }] });
  await skipTutorials(page);
  await allowUse(page, 'text2img');
  await page.goto('/features/text2img');
  await page.getByLabel('Prompt').fill('a lighthouse at dawn');
  await page.getByRole('button', { name: 'Generate' }).click();

  const card = await expectResult(page);
  const result = card.getByRole('img', { name: 'Result' });
  await expect(result).toBeVisible();
  // The stand-in deletes its file once fetched: the page shows our own stored PNG.
  expect(provider.standin.outputs.size).toBe(0);
  const src = (await result.getAttribute('src')) as string;
  const png = await page.evaluate(
    async (url) => Array.from(new Uint8Array(await (await fetch(url)).arrayBuffer())),
    src,
  );
  const meta = await sharp(Buffer.from(png)).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(['png', 768, 768]);

  const create = provider.standin.requests.find((r) => r.method === 'POST' && r.path.endsWith('/predictions'));
  expect((create?.body as { input: Record<string, unknown> }).input).toMatchObject({
    prompt: 'a lighthouse at dawn',
    width: 768,
    height: 768,
    refine: 'expert_ensemble_refiner',
    apply_watermark: false,
    num_inference_steps: 25,
  });
});

test('inpainting with a token fills the painted area with what the prompt says, and only there', async ({
  page,
  provider,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  // The model answers a flat blue square: where it lands in the result is plain to see.
  const blue = await sharp({ create: { width: 512, height: 512, channels: 3, background: '#2040ff' } })
    .png()
    .toBuffer();
  provider.standin.script({ files: [{ data: blue, ext: 'png' }] });
  await skipTutorials(page);
  await allowUse(page, 'image-inpainting');
  await page.goto('/features/inpainting');
  await page.getByLabel('Photo', { exact: true }).setInputFiles(fixture('coffee.png'));
  const canvas = page.getByTestId('mask-canvas');
  await expect(canvas).toBeVisible();
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) throw new Error('no canvas box');
  // One stroke across the wood at the photo's lower left (600x400): x 40-120, y 340.
  const at = (x: number, y: number) => [box.x + (box.width * x) / 600, box.y + (box.height * y) / 400] as const;
  await page.mouse.move(...at(40, 340));
  await page.mouse.down();
  await page.mouse.move(...at(120, 340), { steps: 8 });
  await page.mouse.up();
  await page.getByLabel('Prompt (model provider only)').fill('a red ball');
  await page.getByRole('button', { name: 'Process Image' }).click();

  const card = await expectResult(page);
  await expect(card.getByRole('img', { name: 'Result' })).toBeVisible();
  await page.screenshot({ path: 'test-output/screenshots/inpainting-provider-1280.png', fullPage: true });
  // Each try would be a paid prediction: no free 'Try another fill' here.
  await expect(page.getByRole('button', { name: 'Try another fill' })).toHaveCount(0);

  const create = provider.standin.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/predictions')).at(-1);
  expect((create?.body as { input: Record<string, unknown> }).input).toMatchObject({
    prompt: 'a red ball',
    width: 512,
    num_outputs: 1,
  });
  // The result: blue on the stroke, the photo's own pixels away from it.
  const src = (await card.getByRole('img', { name: 'Result' }).getAttribute('src')) as string;
  const png = await page.evaluate(
    async (url) => Array.from(new Uint8Array(await (await fetch(url)).arrayBuffer())),
    src,
  );
  const result = await sharp(Buffer.from(png)).removeAlpha().raw().toBuffer();
  const original = await sharp(fixture('coffee.png')).removeAlpha().raw().toBuffer();
  const px = (b: Buffer, x: number, y: number) => [...b.subarray((y * 600 + x) * 3, (y * 600 + x) * 3 + 3)];
  expect(px(result, 80, 340)).toEqual([32, 64, 255]);
  for (const [x, y] of [
    [300, 200],
    [80, 250],
    [550, 50],
    [200, 340],
  ] as const) {
    expect(px(result, x, y), `${x},${y}`).toEqual(px(original, x, y));
  }
});
