import { describe, expect, it } from 'vitest';
import { engineFill } from '../../../bench/support/fill-cases.js';
import { strokeHalo } from '../../src/engines/fill/stroke-halo.js';
import { thinParts } from '../../src/engines/fill/thin-parts.js';
import engine from '../../src/engines/local/object-removal.js';
import type { RawImage } from '../../src/engines/raster/image.js';
import { fixturePixels } from '../support/engine-ctx.js';

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

function meanAbsDiffOnRows(a: RawImage, b: RawImage, rows: readonly number[]): number {
  let sum = 0;
  let n = 0;
  for (const y of rows) {
    for (let x = X0; x <= X1; x++) {
      for (let c = 0; c < 3; c++) {
        const i = (y * a.width + x) * 3 + c;
        sum += Math.abs((a.data[i] as number) - (b.data[i] as number));
        n++;
      }
    }
  }
  return sum / n;
}

describe('a stroke grows only where a halo shows', () => {
  it("finds the mark's soft edge the brush left outside, and nothing around a stroke over clean ground", async () => {
    const clean = await fixturePixels('coffee.png');
    const stroke = coreStroke(clean);
    const thin = thinParts(stroke.data, clean.width, clean.height, 5);
    const edgePixels = 2 * (X1 - X0 + 1);
    const onMark = strokeHalo(marked(clean, 0.8), stroke.data, thin);
    const found = EDGE.reduce(
      (n, y) => n + onMark.subarray(y * clean.width + X0, y * clean.width + X1 + 1).reduce((a, v) => a + v, 0),
      0,
    );
    const onClean = strokeHalo(clean, stroke.data, thin).reduce((a, v) => a + v, 0);
    console.log(`halo found: ${found} of the mark's ${edgePixels} edge pixels; around a clean stroke: ${onClean}`);
    expect(found).toBeGreaterThan(0.85 * edgePixels);
    expect(onClean).toBeLessThan(0.05 * edgePixels);
  });

  it('leaves no outline of a date the brush did not quite cover, and keeps the ground beside a stroke that did', async () => {
    const clean = await fixturePixels('coffee.png');
    const stroke = coreStroke(clean);
    const photo = marked(clean, 0.8);
    const filled = await engineFill(engine, photo, stroke);
    const outline = meanAbsDiffOnRows(filled, clean, EDGE);
    const left = meanAbsDiffOnRows(photo, clean, EDGE);
    // A fill invents the wood's grain, so the edge is compared with its error on the rows the brush covered.
    const core = meanAbsDiffOnRows(filled, clean, [CORE[0], (CORE[0] + CORE[1]) / 2, CORE[1]]);
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
