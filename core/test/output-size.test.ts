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

  it('counts the 4x image super-resolution makes before reducing it to 2x', () => {
    const photo = { width: 2000, height: 2000 };
    // 4000x4000 = 16 MP of result, but the network makes 8000x8000 = 64 MP on the way.
    expect(() => checkOutputSize('super-resolution', params('super-resolution', { scale: '2' }), photo)).toThrow(
      'The result would be 4000x4000 pixels, larger than the 10 megapixels this server can make',
    );
    expect(
      checkOutputSize('super-resolution', params('super-resolution', { scale: '2' }), { width: 1500, height: 1500 }),
    ).toEqual({ width: 3000, height: 3000 });
  });

  it('takes the limit the server sets', () => {
    const photo = { width: 100, height: 100 };
    const p = params('face-enhancement', { scale: '2' });
    expect(() => checkOutputSize('face-enhancement', p, photo, 39_999)).toThrow(/OUTPUT_TOO_LARGE|larger than/);
    expect(checkOutputSize('face-enhancement', p, photo, 40_000)).toEqual({ width: 200, height: 200 });
  });
});
