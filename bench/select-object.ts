/**
 * "Select object" methods compared on objects with a known truth (bench/support/selection-cases.ts): per case and
 * mean, the IoU of each method's mask with the truth (before the halo dilation), the truth covered by the dilated
 * mask the API returns, and the time. Methods run in this thread, one after another, as they would in an engine
 * host. Run: npm run bench:select-object
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '../server/src/config.js';
import { decode, type RawImage } from '../server/src/engines/shared/image.js';
import { salientMask } from '../server/src/engines/shared/isnet.js';
import { loadOpenCv, type OpenCv, withMats } from '../server/src/engines/shared/opencv.js';
import { dilate, dilationRadius, normaliseBox, selectObject } from '../server/src/services/select-object.js';
import { grabCutRefiner } from '../server/src/services/select-object-grabcut.js';
import { coverage, iou, type SelectionCase, selectionCases } from './support/selection-cases.js';

process.env.MODEL_CACHE_DIR ??= path.resolve(import.meta.dirname, '../data/models');
const threads = loadConfig().inferenceThreads;
/**
 * ISNet answers are kept per crop: several methods segment the same crops, and the bench would otherwise take twice
 * as long. A method's time still counts each answer's first computation (`charged`).
 */
const answers = new Map<string, { mask: Buffer; ms: number }>();
let charged = 0;
const isnet = async (img: RawImage) => {
  const key = createHash('sha1').update(img.data).digest('hex') + img.width;
  const known = answers.get(key);
  if (known) {
    charged += known.ms;
    return known.mask;
  }
  const t = performance.now();
  const mask = await salientMask(img, threads);
  answers.set(key, { mask, ms: performance.now() - t });
  return mask;
};

type Method = (c: SelectionCase, img: RawImage, cv: OpenCv) => Promise<Buffer>;

/** A disc around the click with the object's own area: a baseline that is even told the object's size. */
const disc: Method = async (c) => {
  let area = 0;
  for (const v of c.truth) if (v) area++;
  const r2 = area / Math.PI;
  const out = Buffer.alloc(c.width * c.height);
  for (let y = 0; y < c.height; y++) {
    for (let x = 0; x < c.width; x++) if ((x - c.point.x) ** 2 + (y - c.point.y) ** 2 <= r2) out[y * c.width + x] = 255;
  }
  return out;
};

/** The box itself, filled. */
const filledBox: Method = async (c) => {
  const b = normaliseBox(c, c.box);
  const out = Buffer.alloc(c.width * c.height);
  for (let y = b.top; y < b.top + b.height; y++) out.fill(255, y * c.width + b.left, y * c.width + b.left + b.width);
  return out;
};

/** GrabCut (OpenCV.js) initialised with the box, 5 iterations. */
const grabCut: Method = async (c, img, cv) => {
  const b = normaliseBox(c, c.box);
  return withMats((track) => {
    const src = track(cv.matFromArray(img.height, img.width, cv.CV_8UC3, Array.from(img.data)));
    const mask = track(new cv.Mat());
    const bgd = track(new cv.Mat());
    const fgd = track(new cv.Mat());
    cv.grabCut(src, mask, new cv.Rect(b.left, b.top, b.width, b.height), bgd, fgd, 5, cv.GC_INIT_WITH_RECT);
    const out = Buffer.alloc(c.width * c.height);
    const m = mask.data as Uint8Array;
    for (let i = 0; i < out.length; i++) if (m[i] === cv.GC_FGD || m[i] === cv.GC_PR_FGD) out[i] = 255;
    return out;
  });
};

/** ISNet on the whole photo, the component under the click. */
const isnetWhole: Method = async (c, img) => {
  // A crop the size of the photo: selectObject's largest step alone.
  const soft = await isnet(img);
  const fake = async () => soft;
  return selectObject(img, { kind: 'point', ...c.point }, async (crop) =>
    crop.width === img.width && crop.height === img.height ? fake() : Buffer.alloc(crop.width * crop.height),
  );
};

const methods: [string, Method][] = [
  ['disc (oracle size)', disc],
  ['ISNet whole photo, click', isnetWhole],
  ['ISNet crops, click', (c, img) => selectObject(img, { kind: 'point', ...c.point }, isnet)],
  ['box filled', filledBox],
  ['GrabCut, box', grabCut],
  ['ISNet crop, box', (c, img) => selectObject(img, { kind: 'box', ...c.box }, isnet)],
  [
    'ISNet crops+GrabCut, click',
    (c, img, cv) => selectObject(img, { kind: 'point', ...c.point }, isnet, grabCutRefiner(cv)),
  ],
  ['ISNet+GrabCut, box', (c, img, cv) => selectObject(img, { kind: 'box', ...c.box }, isnet, grabCutRefiner(cv))],
];

const cv = await loadOpenCv();
const cases = await selectionCases();
// Warm the model so that the first case's time is not the load.
await isnet(await decode(cases[0]?.image as Buffer));
const pad = (s: string, n: number) => s.padEnd(n);
const fmt = (v: number) => v.toFixed(3);
const totals = methods.map(() => ({ iou: 0, cover: 0, ms: 0, worst: 1 }));
console.log(`threads=${threads}  cases=${cases.length}`);
console.log(`${pad('case', 26)}${pad('method', 28)}IoU    covered(dilated)  ms`);
for (const c of cases) {
  const img = await decode(c.image);
  for (const [k, [name, method]] of methods.entries()) {
    charged = 0;
    const t = performance.now();
    const mask = await method(c, img, cv);
    const ms = performance.now() - t + charged;
    const grown = dilate(mask, c.width, c.height, dilationRadius(c.width, c.height));
    const score = iou(mask, c.truth);
    const cover = coverage(grown, c.truth);
    const tot = totals[k] as (typeof totals)[number];
    tot.iou += score;
    tot.cover += cover;
    tot.ms += ms;
    tot.worst = Math.min(tot.worst, score);
    console.log(`${pad(c.name, 26)}${pad(name, 28)}${fmt(score)}  ${fmt(cover)}             ${Math.round(ms)}`);
    if (process.env.BENCH_SAVE) {
      await sharp(mask, { raw: { width: c.width, height: c.height, channels: 1 } })
        .png()
        .toFile(`${process.env.BENCH_SAVE}/${c.name.replace(/\W+/g, '_')}-${k}.png`);
    }
  }
}
console.log('\nmean over cases');
for (const [k, [name]] of methods.entries()) {
  const t = totals[k] as (typeof totals)[number];
  const n = cases.length;
  console.log(
    `${pad(name, 28)}IoU ${fmt(t.iou / n)}  worst ${fmt(t.worst)}  covered ${fmt(t.cover / n)}  ${Math.round(t.ms / n)} ms`,
  );
}
