/**
 * Fit mask to object (engines/select/refine-mask.ts) on objects with a known truth (test-support/selection-cases.ts):
 * a brushed mask made from each object's outline, moved by 8 % / 6 % of its size and grown by 3 % (it misses one
 * side and spills past the other). Per case: the share of the object the strokes cover and the fitted mask covers,
 * what the fit adds beyond the object (grown against halos) and beyond the strokes, as a share of the object's area,
 * and the same for the strokes grown blindly by the fit's band; that every painted pixel is kept; the time.
 * Run: npm run bench:fit-mask
 */

import { loadOpenCv } from '../server/src/engines/models/opencv.js';
import { maskBox } from '../server/src/engines/raster/geometry.js';
import { decode } from '../server/src/engines/raster/image.js';
import { dilate } from '../server/src/engines/raster/morphology.js';
import { grabCutLabels } from '../server/src/engines/select/grabcut.js';
import { growSelection } from '../server/src/engines/select/grow.js';
import { fitBand, refineMask } from '../server/src/engines/select/refine-mask.js';
import { coverage, selectionCases } from '../test-support/selection-cases.js';

type Box = NonNullable<ReturnType<typeof maskBox>>;

function brushed(truth: Buffer, w: number, h: number): Uint8Array {
  const box = maskBox({ data: truth, width: w, height: h, channels: 1 }) as Box;
  const dx = Math.round(0.08 * box.width);
  const dy = Math.round(0.06 * box.height);
  const moved = new Uint8Array(w * h);
  for (let y = dy; y < h; y++) for (let x = dx; x < w; x++) if (truth[(y - dy) * w + x - dx]) moved[y * w + x] = 1;
  return dilate(moved, w, h, Math.round(0.03 * Math.max(box.width, box.height)), 'round');
}

const cut = grabCutLabels(await loadOpenCv());
console.log(
  'case | strokes cover | fitted covers | added by the fit | added by growing the strokes | all painted kept | ms',
);
for (const c of await selectionCases()) {
  const img = await decode(c.image);
  const painted = brushed(c.truth, c.width, c.height);
  const t0 = performance.now();
  const fitted = await refineMask(img, painted, cut);
  const ms = performance.now() - t0;
  const box = maskBox({ data: Buffer.from(painted), width: c.width, height: c.height, channels: 1 }) as Box;
  const band = dilate(painted, c.width, c.height, fitBand(box, c.width, c.height), 'round');
  const blind = growSelection(Buffer.from(band.map((v) => v * 255)), c.width, c.height);
  const allowed = growSelection(c.truth, c.width, c.height);
  const area = c.truth.reduce((n, v) => n + (v ? 1 : 0), 0);
  const added = (m: Buffer) => {
    let n = 0;
    for (let i = 0; i < m.length; i++) if (m[i] && !allowed[i] && !painted[i]) n++;
    return n / area;
  };
  const kept = painted.every((v, i) => !v || fitted[i]);
  const strokes = Buffer.from(painted.map((v) => v * 255));
  console.log(
    [c.name, coverage(strokes, c.truth), coverage(fitted, c.truth), added(fitted), added(blind)]
      .map((v) => (typeof v === 'number' ? v.toFixed(3) : v))
      .concat([String(kept), ms.toFixed(0)])
      .join(' | '),
  );
}
