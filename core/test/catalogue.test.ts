import { describe, expect, it } from 'vitest';
import * as faces from '../src/catalogue/faces.js';
import * as generate from '../src/catalogue/generate.js';
import * as photo from '../src/catalogue/photo.js';
import * as regions from '../src/catalogue/regions.js';
import {
  AppError,
  authErrorMessage,
  ERRORS,
  errorTitle,
  fileFields,
  getOperation,
  LIMITS,
  OPERATIONS,
  parseParams,
} from '../src/index.js';

describe('operation catalogue', () => {
  it('lists every entry of the family files once, with unique ids and routes', () => {
    // An entry written in catalogue/ but left out of CATALOGUE would silently be no operation.
    const written = [faces, generate, photo, regions].flatMap((family) =>
      Object.values(family).flatMap((v) => (typeof v === 'object' && v !== null && 'id' in v ? [v.id] : [])),
    );
    expect(OPERATIONS.map((o) => o.id).sort()).toEqual(written.sort());
    expect(new Set(OPERATIONS.map((o) => o.id)).size).toBe(OPERATIONS.length);
    expect(new Set(OPERATIONS.map((o) => o.route)).size).toBe(OPERATIONS.length);
    expect(getOperation('hdr-enhancement').route).toBe('/features/hdr');
    expect(OPERATIONS.filter((o) => o.guestAccess).map((o) => o.id)).toEqual([LIMITS.guestOperation]);
  });

  it('carries the spec defaults for the text and style tools', () => {
    expect(parseParams(getOperation('text2img'), { prompt: 'a fox' })).toEqual({
      prompt: 'a fox',
      width: 768,
      height: 768,
      refine: 'expert_ensemble_refiner',
      apply_watermark: false,
      num_inference_steps: 25,
      // Every tool's output options, PNG by default.
      format: 'png',
      quality: 90,
    });
    const diffusion = Object.fromEntries(getOperation('text-to-image-diffusion').params.map((p) => [p.name, p]));
    expect(diffusion.guidance_scale).toMatchObject({ min: 1, max: 20, step: 0.5, default: 7.5 });
    expect(diffusion.num_inference_steps).toMatchObject({ min: 10, max: 150, default: 50 });
    expect(diffusion.num_outputs).toMatchObject({ default: 1 });
    const style = Object.fromEntries(getOperation('style-transfer').params.map((p) => [p.name, p]));
    expect(style.style_strength_ratio).toMatchObject({ min: 1, max: 100, default: 35 });
    expect(style.num_steps).toMatchObject({ min: 20, max: 100, default: 50 });
    expect(style.num_outputs).toMatchObject({ min: 1, max: 4, default: 1 });
  });

  it('gives every tool the output options, and background removal a colour or blur behind the subject', () => {
    for (const op of OPERATIONS)
      expect(op.params.filter((p) => p.group === 'output').map((p) => p.name)).toEqual(['format', 'quality']);
    const op = getOperation('background-removal');
    expect(parseParams(op, { background: '#1E90ff', output: 'mask', crop: 'true', format: 'webp' })).toMatchObject({
      background: '#1E90ff',
      output: 'mask',
      crop: true,
      format: 'webp',
      quality: 90,
    });
    expect(parseParams(op, {}).background).toBe('transparent');
    expect(() => parseParams(op, { background: '#12345' })).toThrow(/#rrggbb/);
    expect(() => parseParams(op, { background: 'url(x)' })).toThrow(/#rrggbb/);
  });

  it('names the file fields each input kind takes', () => {
    expect(fileFields(getOperation('text2img'))).toEqual([]);
    expect(fileFields(getOperation('object-removal')).map((f) => f.name)).toEqual(['file', 'mask']);
    expect(fileFields(getOperation('face-swap')).map((f) => f.name)).toEqual(['file', 'file2']);
    expect(fileFields(getOperation('photo-restoration'))).toEqual([
      { name: 'file', required: true },
      { name: 'mask', required: false },
    ]);
  });

  it("reads its output size and cost from the entry's own parameters", () => {
    // A misspelt name would make every result's size NaN, or never scale the expected time.
    for (const op of OPERATIONS) {
      const param = (name: string) => op.params.find((p) => p.name === name);
      const rule = op.outputSize;
      const read =
        rule && 'scaleParam' in rule ? [rule.scaleParam] : rule && 'sizeParams' in rule ? rule.sizeParams : [];
      for (const name of read) expect(Number(param(name)?.default), `${op.id} ${name}`).toBeGreaterThan(0);
      const when = op.cost.scaledWhen;
      if (when)
        expect(param(when.param), op.id).toMatchObject({
          options: expect.arrayContaining([{ value: when.value, label: expect.any(String) }]),
        });
    }
  });
});

describe('parameter checks', () => {
  const diffusion = getOperation('text-to-image-diffusion');
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return err instanceof AppError ? [err.code, err.message] : ['not an AppError'];
    }
    return ['accepted'];
  };

  it('accepts strings from multipart and values from JSON alike', () => {
    expect(parseParams(diffusion, { prompt: 'x', guidance_scale: '12.5' }).guidance_scale).toBe(12.5);
    expect(parseParams(diffusion, { prompt: 'x', guidance_scale: 12.5 }).guidance_scale).toBe(12.5);
    expect(parseParams(getOperation('text2img'), { prompt: 'x', apply_watermark: 'true' }).apply_watermark).toBe(true);
  });

  it('refuses out-of-range, off-step, unknown and malformed values, naming the field', () => {
    expect(refusal(() => parseParams(diffusion, { prompt: 'x', guidance_scale: '25' }))).toEqual([
      'INVALID_PARAMETER',
      'Invalid value for "guidance_scale": must be between 1 and 20',
    ]);
    expect(refusal(() => parseParams(diffusion, { prompt: 'x', guidance_scale: '7.3' }))).toEqual([
      'INVALID_PARAMETER',
      'Invalid value for "guidance_scale": must be a multiple of 0.5 from 1',
    ]);
    expect(refusal(() => parseParams(diffusion, { prompt: 'x', scheduler: 'FAST' }))[0]).toBe('INVALID_PARAMETER');
    expect(refusal(() => parseParams(diffusion, { prompt: 'x', seed: '1' }))).toEqual([
      'INVALID_PARAMETER',
      'Invalid value for "seed": unknown field',
    ]);
    expect(refusal(() => parseParams(diffusion, { prompt: 'x', num_outputs: 'two' }))[0]).toBe('INVALID_PARAMETER');
  });

  it('requires a prompt for the text tools, and exactly one "img" for style transfer', () => {
    expect(refusal(() => parseParams(getOperation('text2img'), {}))).toEqual([
      'PROMPT_REQUIRED',
      'Please enter a prompt before generating',
    ]);
    expect(refusal(() => parseParams(getOperation('text2img'), { prompt: '   ' }))[0]).toBe('PROMPT_REQUIRED');
    const style = getOperation('style-transfer');
    expect(refusal(() => parseParams(style, {}))).toEqual(['accepted']);
    expect(refusal(() => parseParams(style, { prompt: 'an imgur photo' }))[0]).toBe('PROMPT_IMG_KEYWORD');
    expect(refusal(() => parseParams(style, { prompt: 'img meets img' }))[0]).toBe('PROMPT_IMG_KEYWORD');
    expect(refusal(() => parseParams(style, { prompt: 'a man img, as a knight' }))).toEqual(['accepted']);
  });
});

describe('error catalogue', () => {
  it("quotes the spec's messages and titles", () => {
    expect(ERRORS.FILE_REQUIRED.message).toBe('Please select an image to upload');
    expect(ERRORS.FILE_TOO_LARGE.message).toBe('File size too large. Maximum size is 10MB');
    expect(ERRORS.INVALID_FILE_TYPE.message).toBe('Invalid file type. Please upload a JPEG, PNG, or WebP image');
    expect(errorTitle('FEATURE_RESTRICTED')).toBe('Feature Restricted');
    expect(errorTitle('DAILY_LIMIT_REACHED')).toBe('Daily Limit Reached');
    expect(errorTitle('DOWNLOAD_RESTRICTED')).toBe('Download Restricted');
    expect(errorTitle('NOT_A_CODE')).toBe('Error');
    expect(ERRORS.DAILY_LIMIT_REACHED.status).toBe(429);
  });

  it('words sign-in failures by their provider code', () => {
    expect(authErrorMessage('auth/popup-blocked')).toBe('Please enable popups for this website to sign in with Google');
    expect(authErrorMessage('auth/cancelled-popup-request')).toBe('Sign-in cancelled. Please try again');
    expect(authErrorMessage('auth/invalid-api-key')).toBe('Invalid Firebase configuration. Please check your API key.');
    expect(authErrorMessage('auth/network-request-failed')).toBe(
      'Authentication error (network-request-failed). Please ensure popups are enabled and try again.',
    );
  });

  it('keeps the product constants', () => {
    expect(LIMITS.maxUploadBytes).toBe(10 * 1024 * 1024);
    expect([LIMITS.pollIntervalToolMs, LIMITS.pollIntervalResultMs, LIMITS.dailyUsesPerOperation]).toEqual([
      2000, 1000, 2,
    ]);
  });
});
