import type { OutputFormat } from '@ai-editor/core';
import sharp from 'sharp';

export interface EncodedOutput {
  bytes: Buffer;
  contentType: string;
  /** The file extension of the format, for the download's name. */
  ext: string;
}

const TYPES: Record<OutputFormat, { contentType: string; ext: string }> = {
  png: { contentType: 'image/png', ext: 'png' },
  jpeg: { contentType: 'image/jpeg', ext: 'jpg' },
  webp: { contentType: 'image/webp', ext: 'webp' },
};

/**
 * A stored result (PNG) in the format a job asked for: PNG as stored, JPEG flattened on white (it has no alpha),
 * WebP with its alpha kept. Nothing of any metadata is written (sharp writes none unless asked).
 */
export async function encodeOutput(png: Buffer, format: OutputFormat, quality: number): Promise<EncodedOutput> {
  const type = TYPES[format];
  if (format === 'png') return { bytes: png, ...type };
  const image = sharp(png);
  const bytes =
    format === 'jpeg'
      ? await image.flatten({ background: '#ffffff' }).jpeg({ quality }).toBuffer()
      : await image.webp({ quality }).toBuffer();
  return { bytes, ...type };
}
