/**
 * The upload checks alone (services/uploads.ts), on small images made here: each refusal a visitor can meet, with
 * the catalogue's code and message, and what a sound upload is read as.
 */
import { AppError, ERRORS, type ErrorCode, errorMessage, getOperation, OPERATIONS } from '@ai-editor/core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkFiles, checkImage, knownOperation, type UploadedFile } from '../../src/services/uploads.js';

const limits = { maxUploadBytes: 200_000, maxInputPixels: 1_000_000 };

const png = (width: number, height: number, grey = 128) =>
  sharp({ create: { width, height, channels: 3, background: { r: grey, g: grey, b: grey } } })
    .png()
    .toBuffer();

const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, message: err.message, status: err.status };
    throw err;
  }
  throw new Error('expected a refusal');
};

/** The refusal as the catalogue words it. */
const catalogue = (code: ErrorCode, vars: Record<string, string | number> = {}) => ({
  code,
  status: ERRORS[code].status,
  message: errorMessage(code, vars),
});

const photoTool = getOperation('denoising');
const maskTool = OPERATIONS.find((op) => op.mask === 'required') ?? photoTool;
const promptTool = OPERATIONS.find((op) => op.input === 'prompt') ?? photoTool;

describe('checkImage', () => {
  it('reads a sound image by its bytes: type and size', async () => {
    const bytes = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer();
    expect(await checkImage(bytes, limits)).toMatchObject({ mime: 'image/jpeg', ext: 'jpg', width: 30, height: 20 });
  });

  it('refuses an empty, oversized, non-image, too-large-in-pixels or truncated file, each with its message', async () => {
    expect(await refusal(checkImage(Buffer.alloc(0), limits))).toMatchObject({ code: 'FILE_REQUIRED' });
    expect(await refusal(checkImage(Buffer.alloc(limits.maxUploadBytes + 1, 1), limits))).toEqual(
      catalogue('FILE_TOO_LARGE'),
    );
    expect(await refusal(checkImage(Buffer.from('just some text, not a photo'), limits))).toMatchObject({
      code: 'INVALID_FILE_TYPE',
      message: errorMessage('INVALID_FILE_TYPE'),
    });
    // Two megapixels against a one-megapixel limit, refused from the header and named in whole megapixels.
    const big = await png(2000, 1000);
    expect(await refusal(checkImage(big, { ...limits, maxUploadBytes: 10e6 }))).toEqual(
      catalogue('IMAGE_TOO_MANY_PIXELS', { megapixels: 1 }),
    );
    const whole = await png(64, 64);
    expect(await refusal(checkImage(whole.subarray(0, whole.length - 30), limits))).toMatchObject({
      code: 'IMAGE_UNREADABLE',
    });
  });
});

describe('checkFiles', () => {
  const file = async (field: string, bytes?: Buffer): Promise<UploadedFile> => ({
    field,
    bytes: bytes ?? (await png(40, 30)),
  });

  it("takes exactly the operation's fields, once each", async () => {
    const checked = await checkFiles(photoTool, [await file('file')], limits);
    expect(checked.file).toMatchObject({ width: 40, height: 30, mime: 'image/png' });
    expect(await refusal(checkFiles(photoTool, [await file('file'), await file('file')], limits))).toMatchObject({
      code: 'TOO_MANY_FILES',
    });
    expect(await refusal(checkFiles(photoTool, [await file('file'), await file('extra')], limits))).toEqual(
      catalogue('UNEXPECTED_FILE', { field: 'extra' }),
    );
    expect(await refusal(checkFiles(photoTool, [], limits))).toMatchObject({ code: 'FILE_REQUIRED' });
    expect(await refusal(checkFiles(promptTool, [await file('file')], limits))).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining(`${promptTool.name} takes a prompt, not an image`),
    });
  });

  it('wants a mask of the photo’s shape with something painted on it', async () => {
    const photo = await file('file');
    expect(await refusal(checkFiles(maskTool, [photo], limits))).toMatchObject({ code: 'MASK_REQUIRED' });
    const painted = await png(80, 60, 255);
    await expect(checkFiles(maskTool, [photo, await file('mask', painted)], limits)).resolves.toHaveProperty('mask');
    // The painted area, counted at the photo's size (the expected time follows it).
    const checked = await checkFiles(maskTool, [photo, await file('mask', painted)], limits);
    expect(checked.maskPixels).toBe((checked.file?.width ?? 0) * (checked.file?.height ?? 0));
    expect(await refusal(checkFiles(maskTool, [photo, await file('mask', await png(60, 60, 255))], limits))).toEqual(
      catalogue('MASK_SIZE_MISMATCH'),
    );
    expect(await refusal(checkFiles(maskTool, [photo, await file('mask', await png(40, 30, 0))], limits))).toEqual(
      catalogue('MASK_EMPTY'),
    );
  });

  it('holds a stored source (a chained job) to the pixel limit but not to the upload size', async () => {
    const large = await png(400, 300, 200);
    const small = { ...limits, maxUploadBytes: 100 };
    expect(await refusal(checkFiles(photoTool, [{ field: 'file', bytes: large }], small))).toMatchObject({
      code: 'FILE_TOO_LARGE',
    });
    const checked = await checkFiles(photoTool, [{ field: 'file', bytes: large, stored: true }], small);
    expect(checked.file?.width).toBe(400);
  });
});

describe('knownOperation', () => {
  it('requires an operation of the catalogue, echoing a long unknown name shortened', async () => {
    expect(knownOperation('denoising')).toBe('denoising');
    expect(await refusal((async () => knownOperation(undefined))())).toMatchObject({ code: 'BAD_REQUEST' });
    const long = 'x'.repeat(500);
    const err = await refusal((async () => knownOperation(long))());
    expect(err).toEqual(catalogue('UNKNOWN_OPERATION', { operation: `${'x'.repeat(40)}…` }));
  });
});
