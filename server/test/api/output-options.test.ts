import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInVisitor } from '../support/auth.js';
import { blob, fixture, startTestServer, type TestServer, type Visitor } from '../support/server.js';

/** Submits, waits, and fetches result 0 (and its download) as the visitor. */
async function run(visitor: Visitor, fields: Record<string, string | Blob>) {
  const res = await visitor.submit(fields);
  expect(res.status, await res.clone().text()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  const done = (await visitor.waitFor(id, 170_000)) as { status: string; processedUrl: string; downloadUrls: string[] };
  expect(done.status, JSON.stringify(done)).toBe('completed');
  const file = await visitor.fetch(done.processedUrl);
  const download = await visitor.fetch(done.downloadUrls[0] as string);
  return { id, file, bytes: Buffer.from(await file.arrayBuffer()), download };
}

describe('output options and background removal outputs', () => {
  let server: TestServer;
  let visitor: Visitor;
  let photo: Buffer;
  beforeAll(async () => {
    // Many jobs of one tool for one user: a larger daily allowance (a setting, the rules stay on).
    server = await startTestServer({ env: { DAILY_USES_PER_OPERATION: '20' } });
    visitor = await signedInVisitor(server);
    photo = fixture('chelsea.png');
  });
  afterAll(() => server?.close());

  const types = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;
  const exts = { png: 'png', jpeg: 'jpg', webp: 'webp' } as const;
  // A sample: every format of a quick tool, and the lossy ones of a tool whose result is transparent.
  const cases = [
    ['pencil-sketch', 'png'],
    ['pencil-sketch', 'jpeg'],
    ['pencil-sketch', 'webp'],
    ['background-removal', 'jpeg'],
    ['background-removal', 'webp'],
  ] as const;
  for (const [operation, format] of cases) {
    it(`${operation} as ${format}`, { timeout: 300_000 }, async () => {
      const { id, file, bytes, download } = await run(visitor, {
        file: blob(photo, 'image/png'),
        operation,
        format,
        quality: '70',
      });
      expect(file.headers.get('content-type')).toBe(types[format]);
      expect(download.headers.get('content-type')).toBe(types[format]);
      expect(download.headers.get('content-disposition')).toBe(
        `attachment; filename="${operation}-${id}.${exts[format]}"`,
      );
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe(format);
      expect([meta.width, meta.height]).toEqual([451, 300]);
      if (operation === 'background-removal') {
        // Transparent background: kept by WebP; a JPEG is flattened on white.
        const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
        const corner = [...data.subarray(0, info.channels)];
        if (format === 'jpeg') {
          expect(meta.hasAlpha).toBe(false);
          for (const c of corner.slice(0, 3)) expect(c).toBeGreaterThan(240);
        } else expect(corner[3]).toBeLessThan(16);
      }
    });
  }

  it('refuses a format or quality outside the catalogue', async () => {
    for (const [field, value] of [
      ['format', 'gif'],
      ['quality', '0'],
      ['quality', '101'],
    ]) {
      const res = await visitor.submit({
        file: blob(photo, 'image/png'),
        operation: 'pencil-sketch',
        [field as string]: value as string,
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain(`"${field}"`);
    }
  });

  // Background removal's own outputs, on a real photo.

  const removeBackground = (params: Record<string, string>) =>
    run(visitor, { file: blob(photo, 'image/png'), operation: 'background-removal', ...params });

  it('fills the background with a colour: opaque, the colour at a corner', { timeout: 300_000 }, async () => {
    const { bytes } = await removeBackground({ background: '#1e90ff' });
    const meta = await sharp(bytes).metadata();
    expect(meta.hasAlpha).toBe(false);
    const { data } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    // The corner is background; the model's soft mask may leave a trace of the photo there (a few levels).
    const corner = [...data.subarray(0, 3)];
    [0x1e, 0x90, 0xff].forEach((v, i) => expect(Math.abs((corner[i] ?? 0) - v)).toBeLessThanOrEqual(4));
  });

  it('answers the mask as a single-channel greyscale PNG', { timeout: 300_000 }, async () => {
    const { bytes } = await removeBackground({ output: 'mask' });
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('png');
    expect(meta.channels).toBe(1);
    expect([meta.width, meta.height]).toEqual([451, 300]);
    const { channels } = await sharp(bytes).stats();
    // Subject white, background black.
    expect(channels[0]?.max).toBe(255);
    expect(channels[0]?.min).toBeLessThan(10);
  });

  it('crops to the subject over the photo blurred: opaque, smaller than the photo', {
    timeout: 300_000,
  }, async () => {
    const { bytes } = await removeBackground({ background: 'blur', crop: 'true' });
    const meta = await sharp(bytes).metadata();
    expect(meta.hasAlpha).toBe(false);
    expect((meta.width ?? 0) * (meta.height ?? 0)).toBeLessThan(451 * 300);
    expect(meta.width).toBeGreaterThan(50);
    expect(meta.height).toBeGreaterThan(50);
  });

  it('refuses a background that is neither a choice nor a colour', async () => {
    const res = await visitor.submit({
      file: blob(photo, 'image/png'),
      operation: 'background-removal',
      background: 'red',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('#rrggbb');
  });
});
