import sharp from 'sharp';

/** Raw interleaved pixels, as engines work on them. */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/** Luma (BT.601) of an RGB colour. */
export function luma(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

/** Luma (BT.601) of the RGB pixel starting at `o` in `data`. */
export function lumaAt(data: ArrayLike<number>, o: number): number {
  return luma(data[o] as number, data[o + 1] as number, data[o + 2] as number);
}

/** The luma plane of an RGB(A) image (decode gives every photo three or four channels). */
export function lumaPlane(img: RawImage): Float32Array {
  const out = new Float32Array(img.width * img.height);
  for (let i = 0; i < out.length; i++) out[i] = lumaAt(img.data, i * img.channels);
  return out;
}

/** The luma plane in whole levels, one byte a pixel: a one-channel image is its own (the same buffer). */
export function lumaBytes(img: RawImage): Buffer {
  const { data, channels: c } = img;
  if (c === 1) return data;
  const out = Buffer.alloc(img.width * img.height);
  for (let i = 0; i < out.length; i++) out[i] = c >= 3 ? Math.round(lumaAt(data, i * c)) : (data[i * c] as number);
  return out;
}

/** Decodes uploaded bytes with EXIF orientation applied, as 8-bit RGB (or RGBA with `alpha`). */
export async function decode(bytes: Buffer, opts: { alpha?: boolean } = {}): Promise<RawImage> {
  // Grey photos come out as RGB too, so engines can count on three (or four) channels.
  let pipeline = sharp(bytes, { failOn: 'error' }).rotate().toColourspace('srgb');
  pipeline = opts.alpha ? pipeline.ensureAlpha() : pipeline.removeAlpha();
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as RawImage['channels'] };
}

/** Decodes a mask to one channel, 0 = keep, 255 = work on it, at the given size. */
export async function decodeMask(bytes: Buffer, width: number, height: number): Promise<RawImage> {
  const { data, info } = await sharp(bytes, { failOn: 'error' })
    .rotate()
    .flatten({ background: '#000000' })
    .greyscale()
    .resize(width, height, { fit: 'fill' })
    .threshold(128)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 1 };
}

/** Encodes raw pixels as a PNG; sharp writes no metadata unless asked, so nothing of the upload is carried over. */
export function encodePng(img: RawImage): Promise<Buffer> {
  const pipeline = sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } });
  // sharp would widen one band to sRGB; keep a grey picture a one-band PNG.
  return (img.channels === 1 ? pipeline.toColourspace('b-w') : pipeline).png().toBuffer();
}
