import { describe, expect, it } from 'vitest';
import { engineFill } from '../../../test-support/fill-cases.js';
import { scorePainted } from '../../../test-support/painted-cases.js';
import { bridgeLines } from '../../src/engines/fill/line-bridge.js';
import engine from '../../src/engines/local/object-removal.js';
import type { RawImage } from '../../src/engines/raster/image.js';
import { seededRandom } from '../../src/engines/raster/random.js';
import { paintedCase } from '../support/painted-cases.js';

const [W, H] = [96, 96];
const HOLE = { x: 48, y: 48, r: 12 };

/** A grey ground with a gentle slope and grain, and pale lines along `lines` (a soft profile, about 3 px wide). */
function scene(lines: (x: number, y: number) => number): RawImage {
  const random = seededRandom(7);
  const data = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const ground = 90 + 0.3 * x + 8 * (random() - 0.5);
      const cover = Math.exp(-(lines(x, y) ** 2) / (2 * 1.2 ** 2));
      data.fill(Math.round(ground + cover * 100), (y * W + x) * 3, (y * W + x) * 3 + 3);
    }
  }
  return { data, width: W, height: H, channels: 3 };
}

/** The hole: a disc in the middle. */
const hole = Uint8Array.from({ length: W * H }, (_, p) =>
  Math.hypot((p % W) - HOLE.x, Math.floor(p / W) - HOLE.y) <= HOLE.r ? 1 : 0,
);

/** `truth` with the hole filled by the ground alone (`ground`): a fill that lost the line. */
function lineLost(truth: RawImage, ground: RawImage): RawImage {
  const data = Buffer.from(truth.data);
  for (let p = 0; p < W * H; p++) if (hole[p]) ground.data.copy(data, p * 3, p * 3, p * 3 + 3);
  return { ...truth, data };
}

/** Mean absolute difference over the hole's pixels that `where` picks. */
function meanDiff(a: RawImage, b: RawImage, where: (x: number, y: number) => boolean): number {
  let sum = 0;
  let n = 0;
  for (let p = 0; p < W * H; p++) {
    if (!hole[p] || !where(p % W, Math.floor(p / W))) continue;
    sum += Math.abs((a.data[p * 3] as number) - (b.data[p * 3] as number));
    n++;
  }
  return sum / n;
}

/** Distance from (x, y) to the line through (x0, y0) at `angle` degrees. */
const fromLine = (x0: number, y0: number, angle: number) => (x: number, y: number) => {
  const a = (angle * Math.PI) / 180;
  return Math.abs((x - x0) * Math.sin(a) - (y - y0) * Math.cos(a));
};

describe('bridgeLines', () => {
  const ground = scene(() => 99);

  it('draws a straight line that crosses the hole through it, and leaves the ground around it', () => {
    const along = fromLine(48, 48, 30);
    const truth = scene(along);
    const out = bridgeLines(lineLost(truth, ground), hole);
    const onLine = (x: number, y: number) => along(x, y) <= 1;
    const lost = meanDiff(lineLost(truth, ground), truth, onLine);
    const drawn = meanDiff(out, truth, onLine);
    // 89 levels off on the line where it was lost, 21 where drawn.
    expect(lost).toBeGreaterThan(80);
    expect(drawn).toBeLessThan(lost / 4);
    // The ground 9 px and more from the line is not touched (a soft line is drawn from both its sides too).
    expect(meanDiff(out, lineLost(truth, ground), (x, y) => along(x, y) >= 9)).toBe(0);
  });

  it('draws nothing where a third line meets the line in the hole, nor along a curved edge', () => {
    const across = fromLine(48, 48, 0);
    const branch = fromLine(48, 48, 60);
    const junction = scene((x, y) => Math.min(across(x, y), y <= 48 ? branch(x, y) : 99));
    expect(bridgeLines(lineLost(junction, ground), hole).data.equals(lineLost(junction, ground).data)).toBe(true);
    // An arc of radius 80: its ends on the ring turn 11 degrees from the chord between them.
    const arc = scene((x, y) => Math.abs(Math.hypot(x - 48, y - 128) - 80));
    expect(bridgeLines(lineLost(arc, ground), hole).data.equals(lineLost(arc, ground).data)).toBe(true);
  });

  it('carries a rail across a painted blob in object removal (seen case storm-rail: 30.7 dB in the mask before)', async () => {
    const c = await paintedCase('storm-rail');
    const score = scorePainted(c, await engineFill(engine, c.truth, c.hole));
    expect(score.db).toBeGreaterThan(36);
    expect(score.foreign).toBe(0);
  }, 60_000);
});
