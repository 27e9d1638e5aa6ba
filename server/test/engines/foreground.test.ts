import { describe, expect, it } from 'vitest';
import { estimateForeground } from '../../src/engines/raster/foreground.js';

describe('foreground colour at soft edges', () => {
  it('recovers the subject’s colour where the photo mixes it with the background', () => {
    // A red subject fading into a blue background over 16 px: the photo holds a F + (1 - a) B.
    const w = 320;
    const h = 24;
    const F = [200, 50, 30];
    const B = [20, 20, 230];
    const rgb = new Uint8Array(w * h * 3);
    const alpha = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const a = Math.max(0, Math.min(1, (200 - x) / 16));
        const i = y * w + x;
        alpha[i] = Math.round(a * 255);
        for (let c = 0; c < 3; c++) rgb[i * 3 + c] = Math.round(a * (F[c] as number) + (1 - a) * (B[c] as number));
      }
    }
    const out = estimateForeground(rgb, alpha, w, h);
    let worstMixed = 0;
    let worstEstimated = 0;
    for (let x = 185; x < 200; x++) {
      const i = (h / 2) * w + x;
      for (let c = 0; c < 3; c++) {
        worstMixed = Math.max(worstMixed, Math.abs((rgb[i * 3 + c] as number) - (F[c] as number)));
        worstEstimated = Math.max(worstEstimated, Math.abs((out[i * 3 + c] as number) - (F[c] as number)));
      }
    }
    // The photo's own colours there are far off (up to ~190 levels); the estimate is within a few levels.
    expect(worstMixed).toBeGreaterThan(150);
    expect(worstEstimated).toBeLessThanOrEqual(3);
  });
});
