// Inpainting on the provider against the local stand-in: the model gets a crop around the mask at 512 px with the
// mask and the prompt, and its answer lands only inside the (feathered) mask at the photo's resolution.
import { getOperation, parseParams } from '@ai-editor/core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createEngineRegistry } from '../../src/engines/registry.js';
import { createReplicateEngine } from '../../src/engines/replicate/engine.js';
import { cropAround, modelSize } from '../../src/engines/replicate/inpaint-crop.js';
import { makeImage, type Standin, startStandin } from './standin.js';

const TOKEN = 'r8_inpainting_test_token';
const VERSION = '95b7223104132402a9ae91cc677285bc5eb997834bd2349fa486f53910fd68b3';
const [W, H] = [800, 600];
const DISC = { x: 520, y: 260, r: 60 };

let s: Standin;
beforeAll(async () => {
  s = await startStandin({ token: TOKEN });
});
afterAll(() => s.close());

const config = () => ({
  ...loadConfig({}),
  replicateApiToken: TOKEN,
  replicateApiBaseUrl: s.url,
  replicatePollMs: 5,
  replicateModels: {},
  replicateInputs: {},
});

/** A photo with detail everywhere (a colour ramp with a grain), so that any changed pixel shows. */
async function photo(): Promise<{ png: Buffer; raw: Buffer }> {
  const raw = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 3;
      raw[i] = (x * 255) / W;
      raw[i + 1] = (y * 255) / H;
      raw[i + 2] = ((x * 7 + y * 13) % 97) + 60;
    }
  }
  return {
    png: await sharp(raw, { raw: { width: W, height: H, channels: 3 } })
      .png()
      .toBuffer(),
    raw,
  };
}

async function discMask(): Promise<Buffer> {
  const m = Buffer.alloc(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) if ((x - DISC.x) ** 2 + (y - DISC.y) ** 2 <= DISC.r ** 2) m[y * W + x] = 255;
  return sharp(m, { raw: { width: W, height: H, channels: 1 } })
    .png()
    .toBuffer();
}

/** What was sent for a file slot: inline as a data URI, or uploaded first (larger files) under `<slot>.<ext>`. */
function sent(uri: string, slot: 'image' | 'mask'): Buffer {
  if (uri.startsWith('data:')) return Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64');
  const part = s.requests
    .flatMap((r) => (r.path === '/v1/files' ? (r.parts ?? []) : []))
    .find((p) => p.field === 'content' && p.filename.startsWith(`${slot}.`));
  if (!part) throw new Error(`no ${slot} was sent`);
  return part.data;
}

describe('inpainting on the provider', () => {
  it('sends a 512 px crop around the mask with the mask and the prompt, and pastes the answer only inside the mask', async () => {
    const { png, raw } = await photo();
    // The model answers a flat magenta square: where it lands in the result is plain to see.
    s.script({ files: [{ data: await makeImage(512, 512, 'png', { r: 255, g: 0, b: 255 }), ext: 'png' }] });
    const engine = createReplicateEngine('image-inpainting', config());
    const params = parseParams(getOperation('image-inpainting'), { prompt: 'a wooden bench' });
    const out = await engine.run(
      { operation: 'image-inpainting', image: png, mask: await discMask(), params },
      { progress: () => {}, threads: 1, signal: new AbortController().signal },
    );

    const create = s.requests.find((r) => r.method === 'POST' && r.path.endsWith('/predictions'));
    const body = create?.body as { version: string; input: Record<string, unknown> };
    expect(body.version).toBe(VERSION);
    expect(body.input).toMatchObject({ prompt: 'a wooden bench', width: 512, height: 512, num_outputs: 1 });
    // The crop: the mask's box (121 px) and half of it on each side, square, scaled to 512.
    const sentPhoto = await sharp(sent(body.input.image as string, 'image')).metadata();
    expect([sentPhoto.width, sentPhoto.height]).toEqual([512, 512]);
    const sentMask = await sharp(sent(body.input.mask as string, 'mask'))
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([sentMask.info.width, sentMask.info.height]).toEqual([512, 512]);
    const white = sentMask.data.reduce((n, v) => n + (v >= 128 ? 1 : 0), 0) / (512 * 512);
    // The disc fills pi/4 of the middle half of the crop (about 0.2 of it), a little more for the seam's growth.
    expect(white).toBeGreaterThan(0.18);
    expect(white).toBeLessThan(0.26);
    expect(sentMask.data[256 * 512 + 256]).toBe(255);
    expect(sentMask.data[10 * 512 + 10]).toBe(0);

    // The result: the photo's size, magenta inside the disc, the photo's own pixels beyond the feather.
    const result = await sharp(out.images[0]).raw().toBuffer({ resolveWithObject: true });
    expect([result.info.width, result.info.height]).toEqual([W, H]);
    let inside = 0;
    let insideMagenta = 0;
    let outsideChanged = 0;
    let ringChanged = 0;
    const c = result.info.channels;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const d = Math.hypot(x - DISC.x, y - DISC.y);
        const o = (y * W + x) * c;
        const [r, g, b] = [result.data[o], result.data[o + 1], result.data[o + 2]] as number[];
        const i = (y * W + x) * 3;
        const same = r === raw[i] && g === raw[i + 1] && b === raw[i + 2];
        if (d <= DISC.r - 1) {
          inside++;
          if ((r as number) > 240 && (g as number) < 15 && (b as number) > 240) insideMagenta++;
        } else if (d > DISC.r + 8) {
          if (!same) outsideChanged++;
        } else if (!same) ringChanged++;
      }
    }
    expect(insideMagenta / inside).toBeGreaterThan(0.99);
    expect(outsideChanged).toBe(0);
    // The feather blends a thin ring just outside the painted edge.
    expect(ringChanged).toBeGreaterThan(0);
    expect(out.metadata).toMatchObject({ provider: 'replicate', modelSize: { width: 512, height: 512 } });
  });

  it('runs on the provider by default once a token is set, and locally without one or with ENGINE_IMAGE_INPAINTING=local', () => {
    expect(createEngineRegistry(config()).binding('image-inpainting')).toMatchObject({ kind: 'remote' });
    expect(createEngineRegistry(loadConfig({})).binding('image-inpainting')).toMatchObject({ kind: 'local' });
    const local = { ...config(), engineChoice: { 'image-inpainting': 'local' as const } };
    expect(createEngineRegistry(local).binding('image-inpainting')).toMatchObject({ kind: 'local' });
    // Object removal stays local with a token.
    expect(createEngineRegistry(config()).binding('object-removal')).toMatchObject({ kind: 'local' });
  });

  it('crops inside the photo, square where it fits, and asks the model for 512 px by a multiple of 64', () => {
    // A mask in the corner of a wide photo: the crop is shifted to stay inside it.
    expect(cropAround({ left: 0, top: 0, width: 40, height: 40 }, 1600, 900)).toEqual({
      left: 0,
      top: 0,
      width: 104,
      height: 104,
    });
    // A long stroke across a low photo: the crop is as wide as the stroke needs and as tall as the photo.
    const crop = cropAround({ left: 100, top: 50, width: 1000, height: 30 }, 1600, 200);
    expect(crop).toEqual({ left: 0, top: 0, width: 1600, height: 200 });
    expect(modelSize(crop)).toEqual({ width: 512, height: 64 });
    expect(modelSize({ width: 300, height: 700 })).toEqual({ width: 192, height: 512 });
  });
});
