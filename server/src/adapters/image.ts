/** The image work services need (checking uploads, thumbnails), through sharp: services do not import it. */
import sharp from 'sharp';

/** The image's upright size (EXIF orientation applied), read from its header without decoding it; throws if unreadable. */
export async function headerSize(bytes: Buffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  return { width: meta.autoOrient?.width ?? meta.width, height: meta.autoOrient?.height ?? meta.height };
}

/** Decodes the whole image, refusing one over `maxPixels` or truncated or corrupt; throws if it does not decode. */
export async function decodesFully(bytes: Buffer, maxPixels: number): Promise<void> {
  await sharp(bytes, { failOn: 'truncated', limitInputPixels: maxPixels }).stats();
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
