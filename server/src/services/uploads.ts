import { createHash } from 'node:crypto';
import { AppError, fileFields, isAcceptedMime, isOperationId, type Operation, type OperationId } from '@ai-editor/core';
import { fileTypeFromBuffer } from 'file-type';
import { decodesFully, headerSize, paintedPixels } from '../adapters/image.js';

export interface UploadedFile {
  field: string;
  bytes: Buffer;
  /** Read from our own storage (a chained job's source result): not held to the upload size limit. */
  stored?: boolean;
}

/**
 * A photo's identity by content: the same file sent again (each Select object click sends it) has the same key, so
 * that what engines keep about a photo between requests can be found, and dropped when its job is deleted.
 */
export const photoKey = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex').slice(0, 32);

export interface CheckedImage {
  bytes: Buffer;
  mime: string;
  ext: string;
  width: number;
  height: number;
}

export interface UploadLimits {
  maxUploadBytes: number;
  maxInputPixels: number;
  maxOutputPixels: number;
}

/**
 * Checks one uploaded image: size, type decided from its bytes (never from its name or the client's MIME type),
 * a pixel limit read from the header before decoding (decompression bombs), and a full decode that refuses
 * truncated or corrupt files.
 */
export async function checkImage(
  bytes: Buffer,
  limits: Pick<UploadLimits, 'maxUploadBytes' | 'maxInputPixels'>,
): Promise<CheckedImage> {
  if (bytes.length === 0) throw new AppError('FILE_REQUIRED');
  if (bytes.length > limits.maxUploadBytes) throw new AppError('FILE_TOO_LARGE');
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !isAcceptedMime(type.mime)) throw new AppError('INVALID_FILE_TYPE');
  let width: number;
  let height: number;
  try {
    ({ width, height } = await headerSize(bytes));
  } catch {
    throw new AppError('IMAGE_UNREADABLE');
  }
  if (width * height > limits.maxInputPixels) {
    throw new AppError('IMAGE_TOO_MANY_PIXELS', { megapixels: Math.floor(limits.maxInputPixels / 1e6) });
  }
  try {
    await decodesFully(bytes, limits.maxInputPixels);
  } catch {
    throw new AppError('IMAGE_UNREADABLE');
  }
  return { bytes, mime: type.mime, ext: type.ext, width, height };
}

export interface CheckedFiles {
  file?: CheckedImage;
  mask?: CheckedImage;
  file2?: CheckedImage;
  /** The mask's painted pixels, counted at the photo's size. */
  maskPixels?: number;
}

/** Checks that exactly the operation's file fields arrived, once each, and that each is a sound image. */
export async function checkFiles(
  op: Operation,
  files: UploadedFile[],
  limits: Pick<UploadLimits, 'maxUploadBytes' | 'maxInputPixels'>,
): Promise<CheckedFiles> {
  const allowed = fileFields(op);
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.field)) throw new AppError('TOO_MANY_FILES');
    seen.add(f.field);
    if (!allowed.some((a) => a.name === f.field)) {
      throw f.field === 'file'
        ? new AppError('BAD_REQUEST', { reason: `${op.name} takes a prompt, not an image` })
        : new AppError('UNEXPECTED_FILE', { field: f.field });
    }
  }
  const checked: CheckedFiles = {};
  for (const { name, required } of allowed) {
    const upload = files.find((f) => f.field === name);
    if (!upload) {
      if (required) throw new AppError(name === 'mask' ? 'MASK_REQUIRED' : 'FILE_REQUIRED');
      continue;
    }
    checked[name] = await checkImage(
      upload.bytes,
      upload.stored ? { ...limits, maxUploadBytes: Number.POSITIVE_INFINITY } : limits,
    );
  }
  if (checked.file && checked.mask) {
    const photoRatio = checked.file.width / checked.file.height;
    const maskRatio = checked.mask.width / checked.mask.height;
    if (Math.abs(photoRatio - maskRatio) / photoRatio > 0.02) throw new AppError('MASK_SIZE_MISMATCH');
  }
  if (checked.mask) {
    const painted = await paintedPixels(checked.mask.bytes);
    if (painted === 0) throw new AppError('MASK_EMPTY');
    // In the photo's pixels (the mask may be drawn at another size of the same shape): the expected time follows it.
    const scale = checked.file
      ? (checked.file.width * checked.file.height) / (checked.mask.width * checked.mask.height)
      : 1;
    checked.maskPixels = Math.round(painted * scale);
  }
  return checked;
}

/** Operation names are echoed in errors only this long, so a probe cannot make us repeat a megabyte. */
const ECHOED_NAME_CHARS = 40;

/** The operation a submission names: required, and one of the catalogue's (echoed shortened when not). */
export function knownOperation(name: string | undefined): OperationId {
  if (!name) throw new AppError('BAD_REQUEST', { reason: 'The "operation" field is required' });
  if (!isOperationId(name)) {
    const shown = name.length > ECHOED_NAME_CHARS ? `${name.slice(0, ECHOED_NAME_CHARS)}…` : name;
    throw new AppError('UNKNOWN_OPERATION', { operation: shown });
  }
  return name;
}

export interface Submission {
  operation: OperationId;
  /** The operation's parameters, as text (parseParams checks them). */
  fields: Record<string, string>;
  files: UploadedFile[];
}
