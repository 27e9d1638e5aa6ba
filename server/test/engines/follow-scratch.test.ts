import { describe, expect, it } from 'vitest';
import { followScratch } from '../../src/engines/restore/follow-scratch.js';

const [W, H] = [200, 300];
const BAR = 15;

/**
 * A top-hat plane: faint texture (0-10) and a vertical scratch at x = 100 from y = 20 to 279, strong (40) down to
 * y = 119, where the detector found it, and weaker (20, still above the bar) below, where busy parts hid it.
 */
function plane(): Float32Array {
  let seed = 3;
  const t = Float32Array.from({ length: W * H }, () => {
    seed = (seed * 69069 + 1) % 4294967296;
    return (10 * seed) / 4294967296;
  });
  for (let y = 20; y < 280; y++) t[y * W + 100] = y < 120 ? 40 : 20;
  return t;
}

const found = Array.from({ length: 100 }, (_, i) => (20 + i) * W + 100);
const rows = (pixels: number[], x: number) =>
  new Set(pixels.filter((p) => Math.abs((p % W) - x) <= 1).map((p) => Math.floor(p / W)));

describe('followScratch', () => {
  it('follows a scratch past its end as far as it runs, and no further', () => {
    const t = plane();
    const below = followScratch(t, W, H, found, 32, BAR).flatMap((c) => c.pixels);
    const on = rows(below, 100);
    expect(on.has(120) && on.has(200) && on.has(279)).toBe(true);
    expect(Math.max(...on)).toBeLessThan(285);
    // Above the scratch's top there is nothing to follow.
    expect([...on].some((y) => y < 20)).toBe(false);
  });

  it('keeps to its course where a line crosses it at a slant', () => {
    const t = plane();
    // A strong line from the scratch at (100, 150), 20° off it, down to the bottom.
    for (let y = 150; y < H; y++) t[y * W + Math.round(100 + (y - 150) * Math.tan(Math.PI / 9))] = 60;
    const below = followScratch(t, W, H, found, 32, BAR).flatMap((c) => c.pixels);
    expect(rows(below, 100).has(270)).toBe(true);
    expect(rows(below, Math.round(100 + 120 * Math.tan(Math.PI / 9))).has(270)).toBe(false);
  });

  it('stops where texture beside it is as strong as the scratch', () => {
    const t = plane();
    // Below y = 120, texture as strong as the scratch's lower part all around it.
    for (let y = 120; y < H; y++) for (let x = 0; x < W; x++) if ((x + y) % 2 === 0) t[y * W + x] = 20;
    const below = followScratch(t, W, H, found, 32, BAR).flatMap((c) => c.pixels);
    expect(Math.max(0, ...below.map((p) => Math.floor(p / W)))).toBeLessThan(140);
  });
});
