import fs from 'node:fs';
import type { ClientConfig } from '@ai-editor/core';
import sharp from 'sharp';
import { type Standin, startStandin } from '../server/test/replicate/standin';
import { emulatorAnswers } from '../server/test/support/emulator-accounts';
import { test as base, expect } from './fixtures';
import { type RunningServer, startServer } from './server';
import { allowUse, expectResult, skipTutorials } from './tool-support';

/**
 * The provider engine from the tool page: text2img through a local stand-in that speaks Replicate's API (no test
 * reaches the internet). The stand-in checks the request against SDXL's published input schema.
 */
const TOKEN = 'e2e-provider-token';
const test = base.extend<object, { provider: { server: RunningServer; standin: Standin } }>({
  provider: [
    async ({}, use) => {
      const standin = await startStandin({ token: TOKEN });
      const port = 30_000 + Math.floor(Math.random() * 10_000);
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
