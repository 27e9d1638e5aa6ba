/**
 * Restoration with Real-ESRGAN: a region reduced to the resolution its detail really has (blurFactor), run through
 * the network and blended with the original by a strength.
 */

import { esrganUpscale, type UpscaleOptions } from '../models/esrgan.js';
import { lumaPlane, type RawImage } from '../raster/image.js';
import { resizeRaw } from '../raster/resize.js';

/** The image reduced by `k` and enlarged back: what survives of it at 1/k of its resolution. */
async function downUp(img: RawImage, k: number): Promise<RawImage> {
  const small = await resizeRaw(img, Math.max(1, Math.round(img.width / k)), Math.max(1, Math.round(img.height / k)));
  return resizeRaw(small, img.width, img.height);
}

/**
 * How much sharper the image could be (1 = fully sharp, up to 4 = it holds no more detail than a copy at a quarter
 * of its size). Per 32 px block, the energy above 1/4 of the resolution is compared with the energy of the octave
 * below it: natural detail falls off gently (ratio ~1-4), an enlarged or blurred photo has next to nothing there
 * (~0.3-0.45; JPEG blocking keeps it from zero). The sharper blocks decide (75th percentile), so that a soft
 * background does not hide a sharp subject.
 */
export async function blurFactor(img: RawImage): Promise<number> {
  if (img.width < 64 || img.height < 64) return 1;
  const l = lumaPlane(img);
  const d4 = lumaPlane(await downUp(img, 4));
  const d8 = lumaPlane(await downUp(img, 8));
  const B = 32;
  const ratios: number[] = [];
  for (let by = 0; by + B <= img.height; by += B) {
    for (let bx = 0; bx + B <= img.width; bx += B) {
      let high = 0;
      let band = 0;
      for (let y = by; y < by + B; y++) {
        for (let x = bx; x < bx + B; x++) {
          const i = y * img.width + x;
          high += ((l[i] as number) - (d4[i] as number)) ** 2;
          band += ((d4[i] as number) - (d8[i] as number)) ** 2;
        }
      }
      // Flat blocks (sky, walls) say nothing about sharpness.
      if (band / (B * B) > 4) ratios.push(high / band);
    }
  }
  if (ratios.length === 0) return 1;
  ratios.sort((a, b) => a - b);
  const q = ratios[Math.floor(ratios.length * 0.75)] as number;
  // Measured: x4-enlarged JPEGs 0.37-0.46, x2-enlarged 0.72-0.87, sharp photos 0.92-4.
  return Math.min(4, Math.max(1, 4 - (3 * (q - 0.4)) / 0.8));
}

export interface RestoreOptions extends UpscaleOptions {
  /** The most input pixels the network may see (time budget); larger regions are reduced first. */
  maxModelPixels: number;
  /**
   * How much of the restoration to keep (0..1), the rest being the input resized: the network alone over-sharpens
   * heavy degradations (on a face enlarged 4x from a JPEG of quality 30, SSIM to the true face: input 0.633, network
   * 0.622, half and half 0.661). Like GFPGAN's and CodeFormer's fidelity weight.
   */
  strength?: number;
}

/**
 * Restores a region with Real-ESRGAN and returns it at `width`x`height`: the region is reduced to the resolution
 * it really holds (blurFactor), upscaled 4x by the network (which removes blur, noise and JPEG artefacts it was
 * trained on), and resized to the target. When the time budget forces a stronger reduction than the region's own
 * blur, the region's finer detail is added back from the original, so that nothing real is lost.
 */
export async function esrganRestore(
  img: RawImage,
  width: number,
  height: number,
  opts: RestoreOptions,
): Promise<{ image: RawImage; blur: number; reduction: number }> {
  const blur = await blurFactor(img);
  const budget = Math.sqrt((img.width * img.height) / opts.maxModelPixels);
  const reduction = Math.max(blur, budget);
  const small = await resizeRaw(
    img,
    Math.max(1, Math.round(img.width / reduction)),
    Math.max(1, Math.round(img.height / reduction)),
  );
  const restored = await resizeRaw(await esrganUpscale(small, opts), width, height);
  const target = await resizeRaw(img, width, height);
  const strength = opts.strength ?? 1;
  const data = Buffer.alloc(restored.data.length);
  if (budget <= blur * 1.05) {
    for (let i = 0; i < data.length; i++) {
      data[i] = Math.round(strength * (restored.data[i] as number) + (1 - strength) * (target.data[i] as number));
    }
  } else {
    // The low band of the restored region plus the original's own finer detail.
    const k = (reduction * width) / img.width;
    const [targetLow, restoredLow] = await Promise.all([downUp(target, k), downUp(restored, k)]);
    for (let i = 0; i < data.length; i++) {
      const t = target.data[i] as number;
      const low = strength * (restoredLow.data[i] as number) + (1 - strength) * (targetLow.data[i] as number);
      data[i] = Math.max(0, Math.min(255, Math.round(low + t - (targetLow.data[i] as number))));
    }
  }
  return { image: { data, width, height, channels: restored.channels }, blur, reduction };
}
