import fs from 'node:fs';
import { count } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images } from '../../src/db/schema.js';
import { signedInVisitor } from '../support/auth.js';
import { blob, fixture, startTestServer, storedFiles, type TestServer, testEngine } from '../support/server.js';

/** Every refusal answers `{ code, message }` with its status, and leaves no row and no file behind. */
describe('submission validation', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Echo engines make the parameter checks of these operations reachable without waiting on real models.
    server = await startTestServer({
      localEngineOverrides: {
        denoising: testEngine('echo'),
        'style-transfer': testEngine('echo'),
        'object-removal': testEngine('echo'),
      },
    });
  });
  afterAll(() => server.close());

  async function rows() {
    const [row] = await server.handle.database.db.select({ n: count() }).from(images);
    return row?.n ?? 0;
  }

  const png = fixture('astronaut.png');
  const truncatedJpeg = fixture('rocket.jpg').subarray(0, Math.floor(fixture('rocket.jpg').length / 2));
  const tooLarge = Buffer.concat([png.subarray(0, 64), Buffer.alloc(10 * 1024 * 1024 + 1 - 64)]);

  const cases: {
    name: string;
    fields: () => Promise<Record<string, string | Blob>>;
    status: number;
    code: string;
    message: string | RegExp;
  }[] = [
    {
      name: 'no file',
      fields: async () => ({ operation: 'background-removal' }),
      status: 400,
      code: 'FILE_REQUIRED',
      message: 'Please select an image to upload',
    },
    {
      name: '10 MB + 1 byte',
      fields: async () => ({ operation: 'background-removal', file: blob(tooLarge, 'image/png') }),
      status: 413,
      code: 'FILE_TOO_LARGE',
      message: 'File size too large. Maximum size is 10MB',
    },
    {
      name: 'a text file named .png',
      fields: async () => ({
        operation: 'background-removal',
        file: new File(['hello, this is not an image'], 'photo.png', { type: 'image/png' }),
      }),
      status: 415,
      code: 'INVALID_FILE_TYPE',
      message: 'Invalid file type. Please upload a JPEG, PNG, or WebP image',
    },
    {
      name: 'a GIF',
      fields: async () => ({
        operation: 'background-removal',
        file: blob(await sharp(png).gif().toBuffer(), 'image/png'),
      }),
      status: 415,
      code: 'INVALID_FILE_TYPE',
      message: 'Invalid file type. Please upload a JPEG, PNG, or WebP image',
    },
    {
      name: 'a truncated JPEG',
      fields: async () => ({ operation: 'background-removal', file: blob(truncatedJpeg, 'image/jpeg') }),
      status: 422,
      code: 'IMAGE_UNREADABLE',
      message: /could not be read/,
    },
    {
      name: 'a huge-dimension image (decompression bomb)',
      fields: async () => ({
        operation: 'background-removal',
        file: blob(
          await sharp({ create: { width: 9000, height: 9000, channels: 3, background: '#fff' } })
            .png({ compressionLevel: 9 })
            .toBuffer(),
        ),
      }),
      status: 422,
      code: 'IMAGE_TOO_MANY_PIXELS',
      message: 'Image dimensions too large. Maximum is 40 megapixels',
    },
    {
      name: 'an extra file field',
      fields: async () => ({ operation: 'background-removal', file: blob(png), extra: blob(png) }),
      status: 400,
      code: 'UNEXPECTED_FILE',
      message: 'Unexpected file field "extra"',
    },
    {
      name: 'a photo for a prompt-only tool',
      fields: async () => ({ operation: 'text2img', prompt: 'a fox', file: blob(png) }),
      status: 503,
      code: 'OPERATION_UNAVAILABLE',
      message: /not available/,
    },
    {
      name: 'an unknown operation',
      fields: async () => ({ operation: 'teleportation', file: blob(png) }),
      status: 400,
      code: 'UNKNOWN_OPERATION',
      message: 'Unknown operation "teleportation"',
    },
    {
      name: 'no operation',
      fields: async () => ({ file: blob(png) }),
      status: 400,
      code: 'BAD_REQUEST',
      message: 'The "operation" field is required',
    },
    {
      name: 'an out-of-range parameter',
      fields: async () => ({ operation: 'denoising', file: blob(png), strength: '500' }),
      status: 400,
      code: 'INVALID_PARAMETER',
      message: 'Invalid value for "strength": must be between 1 and 100',
    },
    {
      name: 'an unknown parameter',
      fields: async () => ({ operation: 'denoising', file: blob(png), sharpness: '5' }),
      status: 400,
      code: 'INVALID_PARAMETER',
      message: 'Invalid value for "sharpness": unknown field',
    },
    {
      name: "a style prompt without 'img'",
      fields: async () => ({ operation: 'style-transfer', file: blob(png), prompt: 'a portrait in oil' }),
      status: 400,
      code: 'PROMPT_IMG_KEYWORD',
      message: "The prompt must contain the word 'img' exactly once",
    },
    {
      name: "a style prompt with 'img' twice",
      fields: async () => ({ operation: 'style-transfer', file: blob(png), prompt: 'img and img' }),
      status: 400,
      code: 'PROMPT_IMG_KEYWORD',
      message: "The prompt must contain the word 'img' exactly once",
    },
    {
      name: 'a mask-driven operation without its mask',
      fields: async () => ({ operation: 'object-removal', file: blob(png) }),
      status: 400,
      code: 'MASK_REQUIRED',
      message: /mask is missing/,
    },
    {
      name: 'a mask of other proportions',
      fields: async () => ({
        operation: 'object-removal',
        file: blob(png),
        mask: blob(
          await sharp({ create: { width: 300, height: 100, channels: 3, background: '#000' } })
            .png()
            .toBuffer(),
        ),
      }),
      status: 422,
      code: 'MASK_SIZE_MISMATCH',
      message: 'The mask must have the same proportions as the photo',
    },
    {
      name: 'a prompt-only operation with no engine here',
      fields: async () => ({ operation: 'text2img', prompt: 'a red fox' }),
      status: 503,
      code: 'OPERATION_UNAVAILABLE',
      message: /Text to Image is not available on this server\. .*REPLICATE_API_TOKEN/,
    },
  ];

  for (const c of cases) {
    it(`refuses ${c.name}`, async () => {
      const before = await rows();
      const res = await (await signedInVisitor(server)).submit(await c.fields());
      const body = (await res.json()) as { code: string; message: string };
      expect(res.status).toBe(c.status);
      expect(body.code).toBe(c.code);
      if (typeof c.message === 'string') expect(body.message).toBe(c.message);
      else expect(body.message).toMatch(c.message);
      expect(await rows()).toBe(before);
      expect(storedFiles(server.dataDir)).toEqual([]);
    });
  }

  it('refuses two photos in the one file field', async () => {
    const before = await rows();
    const form = new FormData();
    form.append('operation', 'background-removal');
    form.append('file', blob(png));
    form.append('file', blob(png));
    const res = await (await signedInVisitor(server)).fetch('/api/images', { method: 'POST', body: form });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 'TOO_MANY_FILES', message: 'Please upload one image at a time' });
    expect(await rows()).toBe(before);
    expect(storedFiles(server.dataDir)).toEqual([]);
  });

  it('accepts a PNG renamed .jpg with a lying MIME type, as a PNG', async () => {
    const visitor = await signedInVisitor(server);
    const res = await visitor.submit({
      operation: 'denoising',
      file: new File([new Uint8Array(png)], 'holiday.jpg', { type: 'image/jpeg' }),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: number };
    const original = await visitor.fetch(`/api/images/${id}/original`);
    expect(original.headers.get('content-type')).toBe('image/png');
    expect((await visitor.waitFor(id)).status).toBe('completed');
    expect(storedFiles(server.dataDir).some((f) => f.endsWith('file.png'))).toBe(true);
    for (const f of storedFiles(server.dataDir)) fs.rmSync(f);
    await server.handle.database.db.delete(images);
  });
});
