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
  const data = await rawSharp(img).resize(width, height, { fit: 'fill', kernel }).raw().toBuffer();
  return { data, width, height, channels: img.channels };
}
