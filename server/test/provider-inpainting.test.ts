import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeImage, type Standin, startStandin } from './replicate/standin.js';
import { emulatorReady, signIn } from './support/auth.js';
import { blob, fixture, startTestServer, type TestServer } from './support/server.js';

/**
 * Inpainting with a provider token, through HTTP: the job runs on the Replicate stand-in with the visitor's prompt,
 * and its result is not tried again for free ('Try another fill' is for the local fills).
 */
const TOKEN = 'r8_provider_inpainting_token';
let standin: Standin;
let server: TestServer;

beforeAll(async () => {
  standin = await startStandin({ token: TOKEN });
  server = await startTestServer({
    env: { REPLICATE_API_TOKEN: TOKEN, REPLICATE_API_BASE_URL: standin.url, REPLICATE_POLL_MS: '5' },
  });
  await emulatorReady();
}, 600_000);
afterAll(async () => {
  await server?.close();
  await standin?.close();
});

describe('inpainting on the provider (POST /api/images)', () => {
  it('sends the prompt with a crop of the photo and the mask, and offers no free second try', async () => {
    const visitor = server.visitor();
    await signIn(visitor);
    const mask = await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="451" height="300"><rect width="451" height="300"/><circle cx="250" cy="150" r="30" fill="#fff"/></svg>',
      ),
    )
      .png()
      .toBuffer();
    standin.script({ files: [{ data: await makeImage(512, 512, 'png', { r: 0, g: 0, b: 255 }), ext: 'png' }] });
    const res = await visitor.submit({
      operation: 'image-inpainting',
      file: blob(fixture('chelsea.png'), 'image/png'),
      mask: blob(mask, 'image/png'),
      prompt: 'a red ball',
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const job = (await visitor.waitFor(((await res.json()) as { id: number }).id, 120_000)) as {
      id: number;
      status: string;
      metadata: Record<string, unknown>;
    };
    expect(job.status).toBe('completed');
    expect(job.metadata.provider).toBe('replicate');
    const create = standin.requests.find((r) => r.method === 'POST' && r.path.endsWith('/predictions'));
    const input = (create?.body as { input: Record<string, unknown> }).input;
    expect(input).toMatchObject({ prompt: 'a red ball', width: 512, height: 512 });
    expect(typeof input.image).toBe('string');
    expect(typeof input.mask).toBe('string');

    const again = await visitor.fetch(`/api/images/${job.id}/retry`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { code: string }).code).toBe('RETRY_NOT_AVAILABLE');
  }, 300_000);
});
