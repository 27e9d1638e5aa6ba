import { formatById } from '@ai-editor/core';
import sharp from 'sharp';

export interface EncodedOutput {
  bytes: Buffer;
  contentType: string;
  /** The file extension of the format, for the download's name. */
  ext: string;
}

/**
 * A stored result (PNG) in the format a job asked for, as core's format table describes it (formats.ts): PNG as
 * stored, JPEG flattened on white (it has no alpha), WebP with its alpha kept. Nothing of any metadata is written
 * (sharp writes none unless asked). A format the table does not know is refused, never written as another.
 */
export async function encodeOutput(png: Buffer, formatId: string, quality: number): Promise<EncodedOutput> {
  const format = formatById(formatId);
  // Submissions are checked against the same table, so this is a fault of ours (a 500), not the caller's.
  if (!format) throw new Error(`No encoder for the output format "${formatId}"`);
  const type = { contentType: format.mime, ext: format.extensions[0] };
  const { encoder } = format;
  if (encoder.stored) return { bytes: png, ...type };
  let image = sharp(png);
  if (encoder.flatten) image = image.flatten({ background: encoder.flatten });
  const bytes = await image.toFormat(format.id, encoder.quality ? { quality } : {}).toBuffer();
  return { bytes, ...type };
}
