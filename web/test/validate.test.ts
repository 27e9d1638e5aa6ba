/** The upload and parameter rules the tool page checks before sending, as the server would answer them. */
import { getOperation, LIMITS } from '@ai-editor/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkImageFile, checkOutput, checkParams } from '@/features/tool/workspace/validate';
import { ToolError } from '@/lib/job-api';

const file = (type: string, bytes = 10) => new File([new Uint8Array(bytes)], 'photo', { type });

describe('checkImageFile', () => {
  it('takes a JPEG, PNG or WebP photo up to the upload limit', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/webp']) expect(checkImageFile(file(type))).toBeUndefined();
  });

  it('answers with the code the server would: no file, another type, too large', () => {
    expect(checkImageFile(null)).toBe('FILE_REQUIRED');
    expect(checkImageFile(file('image/gif'))).toBe('INVALID_FILE_TYPE');
    expect(checkImageFile(file('image/png', LIMITS.maxUploadBytes + 1))).toBe('FILE_TOO_LARGE');
    expect(checkImageFile(file('image/png', 11), 10)).toBe('FILE_TOO_LARGE');
  });
});

describe('checkParams', () => {
  const op = getOperation('super-resolution');

  it("fills in the catalogue's defaults", () => {
    expect(checkParams(op, {})).toMatchObject({ format: 'png', quality: 90 });
  });

  it("refuses a value out of range with the server's message, ready for a toast", () => {
    const thrown = (() => {
      try {
        checkParams(op, { quality: 101 });
      } catch (err) {
        return err;
      }
    })();
    expect(thrown).toBeInstanceOf(ToolError);
    expect((thrown as ToolError).message).toMatch(/^Invalid value for "quality"/);
  });
});

describe('checkOutput', () => {
  const op = getOperation('super-resolution');
  /** The browser's <img> as it reads a photo of this size (or fails to read it: null). */
  const photoOfSize = (size: { width: number; height: number } | null) =>
    vi.stubGlobal(
      'Image',
      class {
        onload: (() => void) | null = null;
        onerror: (() => void) | null = null;
        naturalWidth = size?.width ?? 0;
        naturalHeight = size?.height ?? 0;
        set src(_url: string) {
          queueMicrotask(() => (size ? this.onload?.() : this.onerror?.()));
        }
      },
    );
  afterEach(() => vi.unstubAllGlobals());
  const upscale = (scale: string) => checkOutput(op, checkParams(op, { scale }), file('image/png'));

  it("refuses a result larger than the server makes, before the upload, in the server's words", async () => {
    photoOfSize({ width: 2000, height: 2000 });
    await expect(upscale('2')).resolves.toBeUndefined();
    await expect(upscale('4')).rejects.toThrow('The result would be 8000x8000 pixels, larger than the 40 megapixels');
  });

  it('leaves a photo the browser cannot read to the server', async () => {
    photoOfSize(null);
    await expect(upscale('4')).resolves.toBeUndefined();
  });
});
