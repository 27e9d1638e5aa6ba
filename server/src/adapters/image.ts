/** The image work services need (checking uploads, thumbnails), through sharp: services do not import it. */
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';

/** The image's upright size (EXIF orientation applied), read from its header without decoding it; throws if unreadable. */
export async function headerSize(bytes: Buffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  return { width: meta.autoOrient?.width ?? meta.width, height: meta.autoOrient?.height ?? meta.height };
}

/**
 * Decodes the whole image, refusing one over `maxPixels` or truncated or corrupt; throws if it does not decode. The
 * pixels stream to nowhere: memory stays a few tiles, and nothing is computed of them (sharp's `stats()`, which did
 * the same, took 165 ms for a 1920x1280 PNG and 780 ms for a 12 MP JPEG that decode in 50 and 90 ms).
 */
export async function decodesFully(bytes: Buffer, maxPixels: number): Promise<void> {
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  await pipeline(sharp(bytes, { failOn: 'truncated', limitInputPixels: maxPixels }).raw(), discard);
}

/** An upright WebP copy inside a `size` x `size` square (never enlarged). */
export function webpThumbnail(bytes: Buffer, size: number, quality: number): Promise<Buffer> {
  return sharp(bytes)
    .rotate()
    .resize(size, size, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality })
    .toBuffer();
}

/**
 * How many pixels of a mask the engines would work on, read as they read it (engines/raster/image.ts decodeMask:
 * transparency as black, grey, threshold at 128): a mask with none changes nothing.
 */
export async function paintedPixels(bytes: Buffer): Promise<number> {
  const painted = await sharp(bytes, { limitInputPixels: false })
    .flatten({ background: '#000000' })
    .greyscale()
    .threshold(128)
    .raw()
    .toBuffer();
  let count = 0;
  for (const v of painted) if (v) count++;
  return count;
}
