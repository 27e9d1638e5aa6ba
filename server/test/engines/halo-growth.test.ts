import { describe, expect, it } from 'vitest';
import { fixturePixels } from '../../../test-support/engine-ctx.js';
import { engineFill } from '../../../test-support/fill-cases.js';
import { haloGrowth } from '../../src/engines/fill/halo-growth.js';
import { thinParts } from '../../src/engines/fill/thin-parts.js';
import engine from '../../src/engines/local/object-removal.js';
import type { RawImage } from '../../src/engines/raster/image.js';
import { dilate } from '../../src/engines/raster/morphology.js';

/**
 * A date-like mark on the wooden table in the photo's lower right corner: a dark bar 5 px high (rows 341-345), its
 * antialiased edge half as dark (rows 340 and 346).
 */
const [X0, X1] = [440, 580];
const CORE = [341, 345] as const;
const EDGE = [340, 346] as const;

/** The photo with the mark: `shade` of the way to black on the core, half of that on the edge rows. */
function marked(photo: RawImage, shade: number): RawImage {
  const data = Buffer.from(photo.data);
  for (let y = EDGE[0]; y <= EDGE[1]; y++) {
    const k = y >= CORE[0] && y <= CORE[1] ? shade : shade / 2;
    for (let x = X0; x <= X1; x++) {
      for (let c = 0; c < 3; c++) {
        const i = (y * photo.width + x) * 3 + c;
        data[i] = Math.round((data[i] as number) * (1 - k));
      }
    }
  }
  return { ...photo, data };
}

/** A stroke painted over the mark's core only, as a visitor with a narrow brush would. */
function coreStroke(photo: RawImage): RawImage {
  const data = Buffer.alloc(photo.width * photo.height);
  for (let y = CORE[0]; y <= CORE[1]; y++) data.fill(255, y * photo.width + X0, y * photo.width + X1 + 1);
  return { data, width: photo.width, height: photo.height, channels: 1 };
}

/** The pixels of the mark's rows `rows` (one byte per pixel of the photo). */
function barRows(photo: RawImage, rows: readonly number[]): Uint8Array {
  const where = new Uint8Array(photo.width * photo.height);
  for (const y of rows) where.fill(1, y * photo.width + X0, y * photo.width + X1 + 1);
  return where;
}

/** How many pixels are set in `a` (and in `b`, when given). */
function count(a: Uint8Array, b?: Uint8Array): number {
  return a.reduce((n, v, i) => n + (v && (!b || b[i]) ? 1 : 0), 0);
}

/** The mean absolute difference of two RGB photos over the pixels set in `where`, per channel. */
function meanAbsDiffIn(a: RawImage, b: RawImage, where: Uint8Array): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < where.length; i++) {
    if (!where[i]) continue;
    for (let c = 0; c < 3; c++) sum += Math.abs((a.data[i * 3 + c] as number) - (b.data[i * 3 + c] as number));
    n++;
  }
  return sum / (3 * n);
}

describe('a stroke grows only where a halo shows', () => {
  it("finds the mark's soft edge the brush left outside, and nothing around a stroke over clean ground", async () => {
    const clean = await fixturePixels('coffee.png');
    const stroke = coreStroke(clean);
    const thin = thinParts(stroke.data, clean.width, clean.height, 5);
    const edgePixels = 2 * (X1 - X0 + 1);
    const onMark = haloGrowth(marked(clean, 0.8), stroke.data, thin, 1, 'mean');
    const found = count(onMark, barRows(clean, EDGE));
    const onClean = count(haloGrowth(clean, stroke.data, thin, 1, 'mean'));
    console.log(`halo found: ${found} of the mark's ${edgePixels} edge pixels; around a clean stroke: ${onClean}`);
    expect(found).toBeGreaterThan(0.85 * edgePixels);
    expect(onClean).toBeLessThan(0.05 * edgePixels);
  });

  it('leaves no outline of a date the brush did not quite cover, and keeps the ground beside a stroke that did', async () => {
    const clean = await fixturePixels('coffee.png');
    const stroke = coreStroke(clean);
    const photo = marked(clean, 0.8);
    const filled = await engineFill(engine, photo, stroke);
    const outline = meanAbsDiffIn(filled, clean, barRows(clean, EDGE));
    const left = meanAbsDiffIn(photo, clean, barRows(clean, EDGE));
    // A fill invents the wood's grain, so the edge is compared with its error on the rows the brush covered.
    const core = meanAbsDiffIn(filled, clean, barRows(clean, [CORE[0], (CORE[0] + CORE[1]) / 2, CORE[1]]));
    console.log(
      `mean |fill - clean photo| on the edge rows ${outline.toFixed(1)} levels, on the covered rows ${core.toFixed(1)}; ` +
        `the outline left as it was ${left.toFixed(1)}`,
    );
    expect(outline).toBeLessThan(left / 2);
    expect(outline).toBeLessThan(1.25 * core);

    // On clean ground the pixels beside the stroke stay the photo's own.
    const plain = await engineFill(engine, clean, stroke);
    let kept = 0;
    for (const y of EDGE) {
      for (let x = X0; x <= X1; x++) {
        const i = (y * clean.width + x) * 3;
        if (plain.data.subarray(i, i + 3).equals(clean.data.subarray(i, i + 3))) kept++;
      }
    }
    console.log(`beside a stroke over clean ground: ${kept} of ${2 * (X1 - X0 + 1)} pixels kept`);
    expect(kept).toBeGreaterThan(0.95 * 2 * (X1 - X0 + 1));
  });
});

/**
 * An object on the same wooden table: a disc of the cat photo's fur and eye (radius 12 px, centre 510,365) whose edge
 * fades into the table over FEATHER px, as a photographed object's edge does, with a blob painted over its core only.
 */
const DISC = { cx: 510, cy: 365, r: 12 };
const FEATHER = 2;

/** Each pixel's distance beyond the disc's edge in whole pixels (0 inside it), as a ring index. */
function ringOf(x: number, y: number): number {
  return Math.max(0, Math.ceil(Math.hypot(x - DISC.cx, y - DISC.cy) - DISC.r));
}

function withObject(photo: RawImage, object: RawImage): RawImage {
  const data = Buffer.from(photo.data);
  for (let y = 0; y < photo.height; y++) {
    for (let x = 0; x < photo.width; x++) {
      const alpha = 1 - ringOf(x, y) / (FEATHER + 1);
      if (alpha <= 0) continue;
      for (let c = 0; c < 3; c++) {
        const i = (y * photo.width + x) * 3 + c;
        const o = object.data[((y - DISC.cy + 115) * object.width + x - DISC.cx + 165) * 3 + c] as number;
        data[i] = Math.round(alpha * o + (1 - alpha) * (photo.data[i] as number));
      }
    }
  }
  return { ...photo, data };
}

/** The pixels whose ring (ringOf) is `from` to `to`: 0 to 0 the disc's core, 1 to FEATHER its soft edge. */
function ringPixels(w: number, h: number, from: number, to: number): Uint8Array {
  return Uint8Array.from({ length: w * h }, (_, i) => {
    const r = ringOf(i % w, Math.floor(i / w));
    return r >= from && r <= to ? 1 : 0;
  });
}

describe('a blob grows only where a halo shows', () => {
  it("follows an object's soft edge out from a blob over its core, finds nothing around a blob over clean ground, and does not reach onto an object beside it", async () => {
    const clean = await fixturePixels('coffee.png');
    const cat = await fixturePixels('chelsea.png');
    const { width: w, height: h } = clean;
    const core = ringPixels(w, h, 0, 0);
    // The soft edge's inner ring (two thirds of the object's colour); the outer one is a third, close to the table's.
    const inner = ringPixels(w, h, 1, 1);
    const blind = dilate(core, w, h, 3);
    const blindRing = count(blind) - count(core);
    const onObject = haloGrowth(withObject(clean, cat), core, core, 3, 'rms');
    const onClean = count(haloGrowth(clean, core, core, 3, 'rms'));
    // A bright box 2 px right of the blob (x 524-540), which growing by 3 px everywhere reaches.
    const box = Uint8Array.from({ length: w * h }, (_, i) => {
      const [x, y] = [i % w, Math.floor(i / w)];
      return x >= 524 && x <= 540 && y >= 355 && y <= 375 ? 1 : 0;
    });
    const boxed = { ...clean, data: Buffer.from(clean.data.map((v, k) => (box[Math.floor(k / 3)] ? 235 : v))) };
    const beside = count(haloGrowth(boxed, core, core, 3, 'rms'), box);
    console.log(
      `blob halo: ${count(onObject, inner)} of the soft edge's ${count(inner)} inner pixels found; around a blob over ` +
        `clean ground ${onClean} of the ${blindRing} that growing 3 px takes; on the box beside it ${beside} of ` +
        `${count(blind, box)}`,
    );
    expect(count(onObject, inner)).toBeGreaterThan(0.5 * count(inner));
    expect(onClean).toBeLessThan(0.33 * blindRing);
    expect(beside).toBeLessThan(0.5 * count(blind, box));
  });

  it('leaves no rim of an object whose soft edge the brush did not cover', async () => {
    const clean = await fixturePixels('coffee.png');
    const photo = withObject(clean, await fixturePixels('chelsea.png'));
    const { width: w, height: h } = clean;
    const core = ringPixels(w, h, 0, 0);
    const edge = ringPixels(w, h, 1, FEATHER);
    const filled = await engineFill(engine, photo, {
      data: Buffer.from(core.map((v) => v * 255)),
      width: w,
      height: h,
      channels: 1,
    });
    const rim = meanAbsDiffIn(filled, clean, edge);
    const left = meanAbsDiffIn(photo, clean, edge);
    const inside = meanAbsDiffIn(filled, clean, core);
    console.log(
      `mean |fill - clean photo| on the soft edge ${rim.toFixed(1)} levels, in the core ${inside.toFixed(1)}; the edge left as it was ${left.toFixed(1)}`,
    );
    expect(rim).toBeLessThan(0.75 * left);
    expect(rim).toBeLessThan(1.25 * inside);
  });
});
