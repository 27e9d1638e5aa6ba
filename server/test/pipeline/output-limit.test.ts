import { count } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images } from '../../src/db/schema.js';
import { signedInVisitor } from '../support/auth.js';
import { blob, startTestServer, storedFiles, type TestServer, testEngine } from '../support/server.js';

/**
 * The output-pixel limit is answered at submit, before anything is stored or queued: the probe's guest sent a
 * 5 KB one-bit PNG of 6300x6300 (39.7 MP, under the input limit) to face enhancement at 2x (158 MP result).
 */
describe('output-pixel limit at submit', () => {
  let server: TestServer;
  let bomb: Buffer;
  beforeAll(async () => {
    // Echo engines: the accepted submissions below must not run real models on 40 MP photos.
    server = await startTestServer({
      localEngineOverrides: { 'face-enhancement': testEngine('echo'), 'super-resolution': testEngine('echo') },
    });
    bomb = await sharp({ create: { width: 6300, height: 6300, channels: 3, background: '#fff' } })
      .png({ palette: true, colours: 2, compressionLevel: 9 })
      .toBuffer();
  });
  afterAll(() => server.close());

  async function rows() {
    const [row] = await server.handle.database.db.select({ n: count() }).from(images);
    return row?.n ?? 0;
  }

  it("refuses a guest's small upload whose 2x result would be 158 MP, storing nothing", async () => {
    expect(bomb.length).toBeLessThan(64 * 1024);
    const res = await server.visitor().submit({ operation: 'face-enhancement', scale: '2', file: blob(bomb) });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      code: 'OUTPUT_TOO_LARGE',
      message:
        'The result would be 12600x12600 pixels, larger than the 40 megapixels this server can make. Choose a smaller scale or a smaller photo',
    });
    expect(await rows()).toBe(0);
    expect(storedFiles(server.dataDir)).toEqual([]);
  });

  it('accepts the same photo at its own size', async () => {
    const visitor = server.visitor();
    const res = await visitor.submit({ operation: 'face-enhancement', scale: '1', file: blob(bomb) });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: number };
    expect((await visitor.waitFor(id, 120_000)).status).toBe('completed');
  }, 180_000);

  it('refuses super-resolution at 2x by the size of its result', async () => {
    const photo = await sharp({ create: { width: 3200, height: 3200, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    const res = await (await signedInVisitor(server)).submit({
      operation: 'super-resolution',
      scale: '2',
      file: blob(photo),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toMatch(
      /^The result would be 6400x6400 pixels, larger than the 40 megapixels/,
    );
  });
});

describe('output-pixel limit set by MAX_OUTPUT_PIXELS', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { MAX_OUTPUT_PIXELS: '1000000' },
      localEngineOverrides: { 'face-enhancement': testEngine('echo') },
    });
  });
  afterAll(() => server.close());

  it('applies the configured limit and publishes it to the web app', async () => {
    const photo = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    const visitor = server.visitor();
    const refused = await visitor.submit({ operation: 'face-enhancement', scale: '2', file: blob(photo) });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { message: string }).message).toContain('larger than the 1 megapixels');
    expect((await visitor.submit({ operation: 'face-enhancement', scale: '1', file: blob(photo) })).status).toBe(201);
    const config = (await (await visitor.fetch('/api/config')).json()) as { limits: { maxOutputPixels: number } };
    expect(config.limits.maxOutputPixels).toBe(1_000_000);
  });
});
