import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInVisitor } from '../support/auth.js';
import { blob, fixture, startTestServer, type TestServer } from '../support/server.js';

/**
 * The classical engines (denoising, object removal, inpainting, HDR, pencil sketch, cartoon) through the whole HTTP
 * path once each, as a signed-in user: submit, poll, fetch the PNG. Their quality is tested in their own files.
 */
describe('classical engines through the HTTP pipeline', () => {
  let server: TestServer;
  let photo: Buffer;
  let mask: Buffer;
  beforeAll(async () => {
    server = await startTestServer();
    photo = await sharp(fixture('chelsea.png')).png().toBuffer();
    // A square over part of the cat's face, white = fill.
    const m = Buffer.alloc(451 * 300);
    for (let y = 100; y < 160; y++) m.fill(255, y * 451 + 300, y * 451 + 360);
    mask = await sharp(m, { raw: { width: 451, height: 300, channels: 1 } })
      .png()
      .toBuffer();
  });
  afterAll(() => server?.close());

  const cases: [string, Record<string, string>, boolean][] = [
    ['denoising', { strength: '60' }, false],
    ['object-removal', {}, true],
    ['image-inpainting', {}, true],
    ['hdr-enhancement', { strength: '50' }, false],
    ['pencil-sketch', { style: 'colored' }, false],
    ['cartoonization', {}, false],
  ];
  for (const [operation, params, needsMask] of cases) {
    it(`runs ${operation}`, { timeout: 180_000 }, async () => {
      const visitor = await signedInVisitor(server);
      const fields: Record<string, string | Blob> = { file: blob(photo, 'image/png'), operation, ...params };
      if (needsMask) fields.mask = blob(mask, 'image/png');
      const res = await visitor.submit(fields);
      expect(res.status, await res.clone().text()).toBe(201);
      const { id } = (await res.json()) as { id: number };
      const done = (await visitor.waitFor(id, 170_000)) as { status: string; processedUrl: string };
      expect(done.status, JSON.stringify(done)).toBe('completed');
      const file = await visitor.fetch(done.processedUrl);
      expect(file.headers.get('content-type')).toBe('image/png');
      const { data, info } = await sharp(Buffer.from(await file.arrayBuffer()))
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([451, 300]);
      if (needsMask) {
        // Far from the mask, the photo is untouched.
        const original = await sharp(photo).raw().toBuffer();
        expect(data.subarray(0, 451 * 3 * 80).equals(original.subarray(0, 451 * 3 * 80))).toBe(true);
      }
    });
  }
});
