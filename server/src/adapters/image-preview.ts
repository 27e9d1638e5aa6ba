import sharp from 'sharp';

/** A PNG scaled down (never up) so that its long side is at most `maxSide`; one that already fits comes back as is. */
export async function previewPng(png: Buffer, maxSide: number): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(png).metadata();
  if (Math.max(width, height) <= maxSide) return png;
  return sharp(png).resize({ width: maxSide, height: maxSide, fit: 'inside' }).png().toBuffer();
}
