/** Resizing raw pixels with sharp, the one place engines do it. */
import sharp from 'sharp';
import type { RawImage } from './image.js';

/** A sharp pipeline reading raw pixels. */
export function rawSharp(img: RawImage) {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } });
}

/** Resizes raw pixels (Lanczos for photos; masks should use `nearest` or be thresholded after). */
export async function resizeRaw(
  img: RawImage,
  width: number,
  height: number,
  kernel: 'lanczos3' | 'nearest' | 'cubic' | 'linear' = 'lanczos3',
): Promise<RawImage> {
  if (img.width === width && img.height === height) return img;
  let pipeline = rawSharp(img).resize(width, height, { fit: 'fill', kernel });
  // sharp writes grey (and grey with alpha) as sRGB unless told: a mask would come back with three times its bytes.
  if (img.channels <= 2) pipeline = pipeline.toColourspace('b-w');
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== img.channels) throw new Error(`resizeRaw: ${img.channels} channels in, ${info.channels} out`);
  return { data, width, height, channels: img.channels };
}
