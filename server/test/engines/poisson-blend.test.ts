import { describe, expect, it } from 'vitest';
import { blendFill } from '../../src/engines/fill/poisson-blend.js';

const W = 640;
const H = 600;
/** A smooth ramp in three channels, as a sky or a lit wall: every step between neighbours the same. */
const ramp = (x: number, y: number) => [30 + 0.15 * x + 0.1 * y, 20 + 0.12 * x + 0.08 * y, 200 - 0.1 * x];

describe('seamless blending of a fill (fill/poisson-blend.ts)', () => {
  it('blends a large fill copied from a much lighter place into a smooth ramp without a visible patch, and says how far off it was', () => {
    // A 30 % hole in the middle, filled with tiles copied from the top-left corner and 40 levels lighter: the
    // steps inside each copy are right, the level is not, and there are seams where the tiles meet.
    const img = new Float32Array(W * H * 3);
    const hole = new Uint8Array(W * H);
    const src = new Int32Array(W * H).fill(-1);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const p = y * W + x;
        const inside = (x - 320) ** 2 + (y - 300) ** 2 < 240 ** 2;
        const s = inside ? ((y % 50) + 1) * W + (x % 50) + 1 : p;
        const v = ramp(s % W, Math.floor(s / W));
        for (let c = 0; c < 3; c++) img[p * 3 + c] = (v[c] as number) + (inside ? 40 : 0);
        if (inside) {
          hole[p] = 1;
          src[p] = s;
        }
      }
    }
    const before = img.slice();
    const correction = blendFill(img, 3, W, H, hole, src);
    // What it says is the mean change of a hole pixel (RGB distance): the fill chooser (inpaint.ts) reads it to tell
    // a copy from the wrong place. Here the tiles are 40 levels too light and off the ramp by their place.
    let changed = 0;
    let holePixels = 0;
    for (let p = 0; p < W * H; p++) {
      if (!hole[p]) continue;
      changed += Math.hypot(...[0, 1, 2].map((c) => (img[p * 3 + c] as number) - (before[p * 3 + c] as number)));
      holePixels++;
    }
    expect(correction).toBeCloseTo(changed / holePixels, 1);
    expect(correction).toBeGreaterThan(40);
    // The guide is the ramp's own steps and the border is the ramp: the blended fill must be the ramp itself.
    let worst = 0;
    let sum = 0;
    let n = 0;
    for (let p = 0; p < W * H; p++) {
      if (!hole[p]) continue;
      const v = ramp(p % W, Math.floor(p / W));
      for (let c = 0; c < 3; c++) {
        const e = Math.abs((img[p * 3 + c] as number) - (v[c] as number));
        worst = Math.max(worst, e);
        sum += e;
        n++;
      }
    }
    console.log('blend error against the ramp: mean', sum / n, 'worst', worst);
    expect(sum / n).toBeLessThan(0.5);
    expect(worst).toBeLessThan(3);
  });

  it('keeps a correction on its side of an edge the fill copies: a band copied too light does not darken the shadow', () => {
    // A lit band (200) over a shadow (50), the hole across both, filled from further right, where the band is lit
    // brighter (240 over the same shadow). The band must come down to 200 and the shadow stay 50.
    // With every step counting in full, the copy's larger step at the edge was kept as far as the border allowed:
    // the band stayed too light near the edge and the shadow was darkened beside it.
    const w = 120;
    const h = 80;
    const scene = (x: number, y: number) => (y >= 40 ? 50 : x >= 61 ? 240 : 200);
    const img = new Float32Array(w * h * 3);
    const hole = new Uint8Array(w * h);
    const src = new Int32Array(w * h).fill(-1);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const p = y * w + x;
        const inside = x >= 20 && x < 60 && y >= 20 && y < 60;
        if (inside) {
          hole[p] = 1;
          src[p] = p + 45;
        }
        for (let c = 0; c < 3; c++) img[p * 3 + c] = scene(inside ? x + 45 : x, y);
      }
    }
    blendFill(img, 3, w, h, hole, src);
    let worst = 0;
    for (let p = 0; p < w * h; p++) {
      if (hole[p]) worst = Math.max(worst, Math.abs((img[p * 3] as number) - scene(p % w, Math.floor(p / w))));
    }
    console.log('worst error on either side of the edge', worst);
    expect(worst).toBeLessThan(4);
  });
});
