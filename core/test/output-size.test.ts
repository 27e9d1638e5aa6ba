import { describe, expect, it } from 'vitest';
import { checkOutputSize, getOperation, LIMITS, type OperationId, outputSize, parseParams } from '../src/index.js';

const params = (id: OperationId, fields: Record<string, string> = {}) => parseParams(getOperation(id), fields);

describe('output size', () => {
  it('follows each tool: upscalers multiply, prompt tools take their width and height, the rest keep the size', () => {
    const photo = { width: 1000, height: 600 };
    expect(outputSize('face-enhancement', params('face-enhancement', { scale: '2' }), photo)).toEqual({
      width: 2000,
      height: 1200,
    });
    expect(outputSize('face-enhancement', params('face-enhancement'), photo)).toEqual(photo);
    expect(outputSize('super-resolution', params('super-resolution', { scale: '4' }), photo)).toEqual({
      width: 4000,
      height: 2400,
    });
    expect(outputSize('background-removal', {}, photo)).toEqual(photo);
    expect(outputSize('text2img', params('text2img', { prompt: 'a fox', width: '512' }))).toEqual({
      width: 512,
      height: 768,
    });
    expect(outputSize('face-aging', params('face-aging'), photo)).toEqual({ width: 1024, height: 1024 });
    expect(outputSize('denoising', params('denoising'))).toBeUndefined();
  });

  it('refuses the guest output bomb: a 6300x6300 photo at 2x face enhancement is 158 MP', () => {
    const bomb = { width: 6300, height: 6300 };
    expect(bomb.width * bomb.height).toBeLessThan(LIMITS.maxInputPixels);
    expect(() => checkOutputSize('face-enhancement', params('face-enhancement', { scale: '2' }), bomb)).toThrow(
      'The result would be 12600x12600 pixels, larger than the 40 megapixels this server can make. Choose a smaller scale or a smaller photo',
    );
    // The same photo at its own size is no larger than an accepted upload.
    expect(checkOutputSize('face-enhancement', params('face-enhancement'), bomb)).toEqual(bomb);
  });

  it('counts super-resolution at 2x by its result: the 2x head never makes the 4x image', () => {
    // 2000x2000 at 2x is 16 MP; the 4x image the network used to make on the way (64 MP) is no longer made.
    const p = params('super-resolution', { scale: '2' });
    expect(checkOutputSize('super-resolution', p, { width: 2000, height: 2000 })).toEqual({
      width: 4000,
      height: 4000,
    });
    expect(() => checkOutputSize('super-resolution', p, { width: 3200, height: 3200 })).toThrow(
      'The result would be 6400x6400 pixels, larger than the 40 megapixels this server can make',
    );
  });

  it('takes the limit the server sets', () => {
    const photo = { width: 100, height: 100 };
    const p = params('face-enhancement', { scale: '2' });
    expect(() => checkOutputSize('face-enhancement', p, photo, 39_999)).toThrow(/OUTPUT_TOO_LARGE|larger than/);
    expect(checkOutputSize('face-enhancement', p, photo, 40_000)).toEqual({ width: 200, height: 200 });
  });
});
