import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureBytes, fixturePixels, fromPng, recordingContext, toPng } from '../../../test-support/engine-ctx.js';
import { luma, ssim } from '../../../test-support/metrics.js';
import engine from '../../src/engines/local/face-enhancement.js';
import type { RawImage } from '../../src/engines/raster/image.js';
import { NO_FACE_NOTE } from '../../src/engines/restore/face-enhance.js';
import type { Progress } from '../../src/engines/types.js';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Eileen Collins' face in astronaut.png (512x512), brows to chin, cheek to cheek, read off the photo by eye. */
const KNOWN_FACE: Box = { x: 168, y: 70, width: 112, height: 120 };

function rawSharp(img: RawImage) {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } });
}

async function region(img: RawImage, b: Box): Promise<Float32Array> {
  const data = await rawSharp(img).extract({ left: b.x, top: b.y, width: b.width, height: b.height }).raw().toBuffer();
  return luma({ data, width: b.width, height: b.height, channels: img.channels });
}

async function faceSsim(img: RawImage, reference: RawImage): Promise<number> {
  return ssim(await region(img, KNOWN_FACE), await region(reference, KNOWN_FACE), KNOWN_FACE.width, KNOWN_FACE.height);
}

function overlap(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

async function enhance(image: Buffer, scale: '1' | '2') {
  const { ctx, progress } = recordingContext(2);
  const out = await engine.run({ operation: 'face-enhancement', image, params: { scale } }, ctx);
  const metadata = out.metadata as { faces: Box[]; note?: string; width: number; height: number };
  return { image: await fromPng(out.images[0] as Buffer), metadata, progress };
}

/** Pixels outside every face box enlarged `margin` times. */
function farFromFaces(faces: Box[], width: number, height: number, margin: number): Uint8Array {
  const far = new Uint8Array(width * height).fill(1);
  for (const f of faces) {
    const cx = f.x + f.width / 2;
    const cy = f.y + f.height / 2;
    for (
      let y = Math.max(0, Math.floor(cy - (f.height * margin) / 2));
      y < Math.min(height, cy + (f.height * margin) / 2);
      y++
    ) {
      for (
        let x = Math.max(0, Math.floor(cx - (f.width * margin) / 2));
        x < Math.min(width, cx + (f.width * margin) / 2);
        x++
      ) {
        far[y * width + x] = 0;
      }
    }
  }
  return far;
}

afterAll(() => engine.release?.());

describe('face-enhancement engine', () => {
  let original: RawImage;
  let degraded: RawImage;
  let result: { image: RawImage; metadata: { faces: Box[]; note?: string }; progress: Progress[] };

  beforeAll(async () => {
    original = await fixturePixels('astronaut.png');
    // Downscale x4, JPEG quality 30, upscale back: a badly degraded but recognisable face.
    const jpeg = await rawSharp(original).resize(128, 128).jpeg({ quality: 30 }).toBuffer();
    degraded = await fromPng(await sharp(jpeg).resize(512, 512, { kernel: 'lanczos3' }).png().toBuffer());
    result = await enhance(await toPng(degraded), '1');
  }, 120_000);

  it('brings a degraded face closer to the original (SSIM) than the input and than an unsharp mask', async () => {
    const enhanced = await faceSsim(result.image, original);
    const input = await faceSsim(degraded, original);
    let unsharp = 0;
    for (const sigma of [0.7, 1, 1.5, 2]) {
      const sharpened = await fromPng(await rawSharp(degraded).sharpen({ sigma }).png().toBuffer());
      unsharp = Math.max(unsharp, await faceSsim(sharpened, original));
    }
    console.log(
      `face SSIM: degraded ${input.toFixed(4)}, best unsharp mask ${unsharp.toFixed(4)}, enhanced ${enhanced.toFixed(4)}`,
    );
    expect(enhanced).toBeGreaterThan(input + 0.01);
    expect(enhanced).toBeGreaterThan(unsharp + 0.01);
  });

  it('reports a face box over the known face', () => {
    const { faces } = result.metadata;
    expect(faces.length).toBe(1);
    const face = faces[0] as Box;
    const inter = overlap(face, KNOWN_FACE);
    const iou = inter / (face.width * face.height + KNOWN_FACE.width * KNOWN_FACE.height - inter);
    expect(inter / (KNOWN_FACE.width * KNOWN_FACE.height)).toBeGreaterThan(0.9);
    expect(iou).toBeGreaterThan(0.4);
  });

  it('leaves pixels far from the faces unchanged at 1x', () => {
    const far = farFromFaces(result.metadata.faces, 512, 512, 1.7);
    let count = 0;
    let changed = 0;
    for (let p = 0; p < far.length; p++) {
      if (!far[p]) continue;
      count++;
      if ([0, 1, 2].some((k) => result.image.data[p * 3 + k] !== degraded.data[p * 3 + k])) changed++;
    }
    expect(changed).toBe(0);
    expect(count).toBeGreaterThan(512 * 512 * 0.7);
  });

  it('reports progress through its stages', () => {
    expect(new Set(result.progress.map((p) => p.percent)).size).toBeGreaterThan(1);
  });

  it('at 2x, enlarges the photo and keeps everything far from the face as a plain Lanczos enlargement', async () => {
    const { image, metadata } = await enhance(fixtureBytes('astronaut.png'), '2');
    expect([image.width, image.height]).toEqual([1024, 1024]);
    const face = metadata.faces[0] as Box;
    expect(overlap(face, { x: 336, y: 140, width: 224, height: 240 })).toBeGreaterThan(0.9 * 224 * 240);
    const lanczos = await fromPng(await rawSharp(original).resize(1024, 1024, { kernel: 'lanczos3' }).png().toBuffer());
    const far = farFromFaces(metadata.faces, 1024, 1024, 1.7);
    let same = 0;
    let total = 0;
    for (let p = 0; p < far.length; p++) {
      if (!far[p]) continue;
      total++;
      if ([0, 1, 2].every((k) => image.data[p * 3 + k] === lanczos.data[p * 3 + k])) same++;
    }
    expect(same / total).toBe(1);
    // The face itself was worked on.
    expect(
      await faceSsim(await fromPng(await rawSharp(image).resize(512, 512).png().toBuffer()), original),
    ).toBeLessThan(0.999);
  }, 120_000);

  it('enhances a photo without faces as a whole and says so', async () => {
    const photo = await fixturePixels('coffee.png', { width: 300, height: 200 });
    const { image, metadata } = await enhance(await toPng(photo), '1');
    expect(metadata.faces).toEqual([]);
    expect(metadata.note).toBe(NO_FACE_NOTE);
    expect([image.width, image.height]).toEqual([300, 200]);
    expect(image.data.equals(photo.data)).toBe(false);
  }, 120_000);
});
