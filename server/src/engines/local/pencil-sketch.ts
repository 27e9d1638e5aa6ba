import sharp from 'sharp';
import { definePhotoEngine } from '../define-photo.js';
import { warmWithSmallJob } from '../models/warm.js';
import { luma, lumaBytes, type RawImage } from '../raster/image.js';

/**
 * Pencil sketch. Graphite: the grey image colour-dodged with its own blurred inverse (grey * 255 / blur(grey)),
 * which leaves white paper where the photo is smooth and pencil strokes where it changes; a light wash of the
 * photo's own tones (multiplied in) keeps shading, and a power curve darkens the strokes. Coloured pencil: the same
 * strokes and shading, tinted by the photo's colours, so it reads as colour pencil on white paper.
 */

/** Blur radius (sigma) of the dodge as a share of the shorter side: sets the width of the strokes. */
const STROKE_SHARE = 1 / 180;
/** How much of the photo's tone shades the paper (0 = pure line drawing). */
const SHADING = 0.35;
/** Exponent applied to the dodge: > 1 darkens strokes. */
const STROKE_WEIGHT = 1.6;
/** Coloured pencil: how strongly the photo's colour tints the strokes and paper (0 = grey). */
const TINT = 0.5;

async function blurPlane(plane: Uint8Array | Buffer, w: number, h: number, sigma: number): Promise<Buffer> {
  // libvips hands one-band raw input back as sRGB unless told otherwise: ask for one band.
  const out = await sharp(plane, { raw: { width: w, height: h, channels: 1 } })
    .blur(sigma)
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  if (out.length !== w * h) throw new Error(`blur returned ${out.length} bytes for ${w * h} pixels`);
  return out;
}

export async function pencilSketch(photo: RawImage, style: 'graphite' | 'colored'): Promise<RawImage> {
  const { width: w, height: h, channels: c, data } = photo;
  const n = w * h;
  const grey = lumaBytes(photo);
  const sigma = Math.max(1.5, Math.min(w, h) * STROKE_SHARE);
  // A slight pre-blur keeps sensor noise from turning into pencil dots.
  const clean = await blurPlane(grey, w, h, Math.max(0.5, sigma / 4));
  const blurred = await blurPlane(clean, w, h, sigma);
  const shade = await blurPlane(clean, w, h, sigma * 2);

  // Pencil value per pixel, 0 (black) to 1 (paper).
  const pencil = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const dodge = Math.min(1, ((clean[i] as number) + 1) / ((blurred[i] as number) + 1));
    const tone = 1 - SHADING * (1 - (shade[i] as number) / 255);
    pencil[i] = dodge ** STROKE_WEIGHT * tone;
  }

  if (style === 'graphite') {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = Math.round(255 * (pencil[i] as number));
    return { data: out, width: w, height: h, channels: 1 };
  }

  // Coloured pencil: the photo's chromaticity (colour over its luminance), softened and partly washed towards
  // white, tints the strokes; the tone stays the pencil's, so smooth areas stay light like paper.
  const soft = await sharp(data, { raw: { width: w, height: h, channels: c } })
    .removeAlpha()
    .blur(Math.max(0.5, sigma / 2))
    .toColourspace('srgb')
    .raw()
    .toBuffer();
  const sc = soft.length / n;
  const out = Buffer.alloc(n * 3);
  for (let i = 0; i < n; i++) {
    const r = soft[i * sc] as number;
    const g = soft[i * sc + Math.min(1, sc - 1)] as number;
    const b = soft[i * sc + Math.min(2, sc - 1)] as number;
    const pixelLuma = Math.max(16, luma(r, g, b));
    const p = 255 * (pencil[i] as number);
    for (const [k, v] of [r, g, b].entries()) {
      const tint = Math.min(2, v / pixelLuma);
      out[i * 3 + k] = Math.min(255, Math.round(p * (1 - TINT + TINT * tint)));
    }
  }
  return { data: out, width: w, height: h, channels: 3 };
}

export default definePhotoEngine('pencil-sketch', {
  stage: 'Drawing',
  percents: { read: 10, work: [40, 85], encode: 85 },
  async run(job, photo, progress) {
    const { style } = job.params;
    progress(0);
    const image = await pencilSketch(photo, style);
    return { image, metadata: { method: 'colour dodge of the blurred inverse, shaded', style } };
  },
  warm: warmWithSmallJob,
});
