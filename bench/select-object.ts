/**
 * Select object, the segment-anything method (engines/select/sam-select.ts) beside the method before it (ISNet on
 * crops around a click, GrabCut in a box: bench/select-object/isnet-crops.ts), on objects with a known truth:
 * - isolated objects (test-support/selection-cases.ts): a click and a box on each;
 * - touching pairs (test-support/touching-pairs.ts), the tuning pairs and fifteen held-out sets: a click on each object
 *   must give it alone, and one step larger must give the pair.
 * Per case: IoU with the truth (before the halo growth) of each method's click and box answers, and their times, and
 * of four more clicks spread over the object (SAM only: a click on a part must give the whole object too); then the
 * medians per set. Then the latency at 1920x1280 through the selection engine as an engine host runs it:
 * the first click on a photo (decoding it and computing its embedding included: what preparation does before the
 * first click), and later clicks on the same photo. Then the same clicks in Chromium on the real server, to the mask
 * on screen (the first from the photo chosen, later ones from the pointer going down; BENCH_BROWSER_PHOTOS photos, 12
 * by default; needs `npm run build`).
 *
 * Run: npm run bench:select-object   (BENCH_BEFORE=0: the new method alone; BENCH_ONLY=quality, latency or browser: that
 * part alone; BENCH_SETS=isolated,tuning,held-out,...: those sets alone, e.g. to try a change without a fresh set)
 */
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '../server/src/config.js';
import { salientMask } from '../server/src/engines/models/isnet.js';
import { setModelCacheDir } from '../server/src/engines/models/model-cache.js';
import { loadOpenCv } from '../server/src/engines/models/opencv.js';
import { samDecode, samEmbed } from '../server/src/engines/models/sam.js';
import { decode, type RawImage } from '../server/src/engines/raster/image.js';
import { grabCutBox } from '../server/src/engines/select/grabcut.js';
import { place } from '../server/src/engines/select/grow.js';
import { paramsOf, type SelectRequest } from '../server/src/engines/select/request.js';
import { samSelect } from '../server/src/engines/select/sam-select.js';
import selectEngine, { peopleOf } from '../server/src/engines/select/task.js';
import { photoKey } from '../server/src/services/uploads.js';
import { iou, selectionCases } from '../test-support/selection-cases.js';
import { touchingPairs, union } from '../test-support/touching-pairs.js';
import { clickToScreen } from './select-object/in-browser.js';
import { clickModelSide, selectObject } from './select-object/isnet-crops.js';

setModelCacheDir(path.resolve(process.env.MODEL_CACHE_DIR ?? path.join(import.meta.dirname, '../data/models')));
const threads = loadConfig().inferenceThreads;
const before = process.env.BENCH_BEFORE !== '0';
const only = process.env.BENCH_ONLY;
const chosenSets = process.env.BENCH_SETS?.split(',');
const wanted = (set: string) => !chosenSets || chosenSets.includes(set);

/** The sets of touching pairs (test-support/touching-pairs.ts), by the name the tables give them. */
const PAIR_SETS = {
  'pairs (tuning)': 'tuning',
  'pairs (held out)': 'held-out',
  'pairs (held out 2)': 'held-out-2',
  'pairs (held out 3)': 'held-out-3',
  'pairs (held out 4)': 'held-out-4',
  'pairs (held out 5)': 'held-out-5',
  'pairs (held out 6)': 'held-out-6',
  'pairs (held out 7)': 'held-out-7',
  'pairs (held out 8)': 'held-out-8',
  'pairs (held out 9)': 'held-out-9',
  'pairs (held out 10)': 'held-out-10',
  'pairs (held out 11)': 'held-out-11',
  'pairs (held out 12)': 'held-out-12',
  'pairs (held out 13)': 'held-out-13',
  'pairs (held out 14)': 'held-out-14',
  'pairs (held out 15)': 'held-out-15',
} as const;
type SetName = 'isolated' | keyof typeof PAIR_SETS;

interface Target {
  set: SetName;
  name: string;
  truth: Buffer;
  point: { x: number; y: number };
  /** More clicks on the object, spread over it (spreadPoints): a part of it must give the whole object too. */
  spread: { x: number; y: number }[];
  box: { x0: number; y0: number; x1: number; y1: number };
  /** For an object of a touching pair: the pair, what "larger" should give. */
  pair?: Buffer;
}

interface Row {
  target: Target;
  /** `spread`: the IoU of each click of the target's spread. */
  sam: { click: number; spread: number[]; box: number; larger?: number; clickMs: number };
  old?: { click: number; box: number; clickMs: number };
}

/** The truth's bounding box widened by 5 % (the box a person drags). */
function boxOf(truth: Buffer, width: number) {
  let [x0, y0, x1, y1] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -1, -1];
  for (let i = 0; i < truth.length; i++) {
    if (!truth[i]) continue;
    const x = i % width;
    const y = (i - x) / width;
    [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x + 1), Math.max(y1, y + 1)];
  }
  const [mx, my] = [0.05 * (x1 - x0), 0.05 * (y1 - y0)];
  return { x0: x0 - mx, y0: y0 - my, x1: x1 + mx, y1: y1 + my };
}

/** How far inside the truth's edge a spread click lies (px): a person clicks on an object, not on its outline. */
const SPREAD_INSET = 6;

/**
 * Four clicks spread over an object besides the one at its centroid: the truth's pixels at least SPREAD_INSET px
 * inside its edge nearest to the points a quarter of its box left, right, above and below its centroid (a cup's
 * saucer and handle, a person's head and legs), fewer where the object is too thin to hold them.
 */
function spreadPoints(truth: Buffer, width: number, centre: { x: number; y: number }) {
  const height = truth.length / width;
  const box = boxOf(truth, width);
  const inside = (x: number, y: number) =>
    x >= SPREAD_INSET &&
    y >= SPREAD_INSET &&
    x < width - SPREAD_INSET &&
    y < height - SPREAD_INSET &&
    [
      [0, 0],
      [SPREAD_INSET, 0],
      [-SPREAD_INSET, 0],
      [0, SPREAD_INSET],
      [0, -SPREAD_INSET],
    ].every(([dx, dy]) => truth[(y + (dy as number)) * width + x + (dx as number)]);
  const [qx, qy] = [(box.x1 - box.x0) / 4, (box.y1 - box.y0) / 4];
  const aims = [
    [centre.x - qx, centre.y],
    [centre.x + qx, centre.y],
    [centre.x, centre.y - qy],
    [centre.x, centre.y + qy],
  ] as const;
  const best = aims.map(() => ({ d: Number.POSITIVE_INFINITY, x: 0, y: 0 }));
  for (let i = 0; i < truth.length; i++) {
    if (!truth[i]) continue;
    const x = i % width;
    const y = (i - x) / width;
    if (!inside(x, y)) continue;
    aims.forEach(([ax, ay], k) => {
      const d = (x - ax) ** 2 + (y - ay) ** 2;
      const b = best[k] as { d: number; x: number; y: number };
      if (d < b.d) Object.assign(b, { d, x, y });
    });
  }
  return best
    .filter((b) => Number.isFinite(b.d) && (b.x !== centre.x || b.y !== centre.y))
    .map(({ x, y }) => ({ x, y }));
}

async function photos(): Promise<{ name: string; image: Buffer; targets: Target[] }[]> {
  const out: { name: string; image: Buffer; targets: Target[] }[] = [];
  for (const c of wanted('isolated') ? await selectionCases() : []) {
    out.push({
      name: c.name,
      image: c.image,
      targets: [{ set: 'isolated', ...c, spread: spreadPoints(c.truth, c.width, c.point) }],
    });
  }
  for (const [set, pairSet] of Object.entries(PAIR_SETS) as [SetName, (typeof PAIR_SETS)[keyof typeof PAIR_SETS]][]) {
    if (!wanted(pairSet)) continue;
    for (const p of await touchingPairs(pairSet)) {
      const both = union(p.objects[0]?.truth as Buffer, p.objects[1]?.truth as Buffer);
      const targets = p.objects.map((o) => ({
        set,
        name: `${p.name}: ${o.name}`,
        truth: o.truth,
        point: o.point,
        spread: spreadPoints(o.truth, p.width, o.point),
        box: boxOf(o.truth, p.width),
        pair: both,
      }));
      out.push({ name: p.name, image: p.image, targets });
    }
  }
  return out;
}

const ms = (t: number) => performance.now() - t;

async function quality(): Promise<Row[]> {
  const rows: Row[] = [];
  const cv = before ? await loadOpenCv() : undefined;
  for (const photo of await photos()) {
    const img = await decode(photo.image);
    const embedding = await samEmbed(img, threads);
    const people = await peopleOf(img);
    // The selection as a mask of the whole photo (0/255), as the truth is.
    const sam = async (request: SelectRequest) => {
      const { mask } = await samSelect(
        request,
        img,
        (prompt, size) => samDecode(embedding, prompt, threads, size),
        people,
      );
      return { mask: mask ? place(mask.data, mask.rect, img.width, img.height) : Buffer.alloc(img.width * img.height) };
    };
    for (const target of photo.targets) {
      const click = { points: [{ ...target.point, label: 1 as const }] };
      let t = performance.now();
      const clicked = await sam(click);
      const clickMs = ms(t);
      const spread: number[] = [];
      for (const p of target.spread) spread.push(iou((await sam({ points: [{ ...p, label: 1 }] })).mask, target.truth));
      const boxed = await sam({ points: [], box: target.box });
      const larger = target.pair ? iou((await sam({ ...click, level: 1 })).mask, target.pair) : undefined;
      const row: Row = {
        target,
        sam: { click: iou(clicked.mask, target.truth), spread, box: iou(boxed.mask, target.truth), larger, clickMs },
      };
      if (cv) {
        const methods = {
          segment: (crop: RawImage) => salientMask(crop, threads, clickModelSide(crop.width, crop.height)),
          cutBox: grabCutBox(cv),
          outer: 'centred' as const,
        };
        t = performance.now();
        const oldClick = await selectObject(img, { kind: 'point', ...target.point }, methods);
        const oldMs = ms(t);
        const oldBox = await selectObject(img, { kind: 'box', ...target.box }, methods);
        row.old = { click: iou(oldClick, target.truth), box: iou(oldBox, target.truth), clickMs: oldMs };
      }
      rows.push(row);
      console.error(`  measured ${target.name}`);
    }
  }
  return rows;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const f = (v: number | undefined) => (v === undefined ? '—' : v.toFixed(3));

function printQuality(rows: Row[]) {
  console.log('\n## IoU with the truth (click, box) and click time, per case\n');
  console.log(
    '| set | case | click before | click SAM | spread clicks SAM | box before (GrabCut) | box SAM | larger = the pair | click ms before / SAM |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    console.log(
      `| ${r.target.set} | ${r.target.name} | ${f(r.old?.click)} | ${f(r.sam.click)} | ${r.sam.spread.map(f).join(' ')} | ${f(r.old?.box)} | ${f(r.sam.box)} | ${f(r.sam.larger)} | ${r.old ? r.old.clickMs.toFixed(0) : '—'} / ${r.sam.clickMs.toFixed(0)} |`,
    );
  }
  console.log('\n## Medians (and worst) per set\n');
  console.log(
    '| set | cases | click before | click SAM | worst click SAM | box before | box SAM | larger = the pair | SAM clicks ≥ target | objects with every click ≥ target |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const set of ['isolated', ...Object.keys(PAIR_SETS)] as SetName[]) {
    const rs = rows.filter((r) => r.target.set === set);
    if (!rs.length) continue;
    const target = set === 'isolated' ? 0.9 : 0.85;
    const old = rs.every((r) => r.old);
    const larger = rs.flatMap((r) => (r.sam.larger === undefined ? [] : [r.sam.larger]));
    console.log(
      `| ${set} | ${rs.length} | ${old ? f(median(rs.map((r) => r.old?.click as number))) : '—'} | ${f(median(rs.map((r) => r.sam.click)))} | ${f(Math.min(...rs.map((r) => r.sam.click)))} | ${old ? f(median(rs.map((r) => r.old?.box as number))) : '—'} | ${f(median(rs.map((r) => r.sam.box)))} | ${larger.length ? f(median(larger)) : '—'} | ${rs.filter((r) => r.sam.click >= target).length} of ${rs.length} (≥ ${target}) | ${rs.filter((r) => [r.sam.click, ...r.sam.spread].every((v) => v >= target)).length} of ${rs.length} |`,
    );
  }
  // The model's reach: the object's own box is the most one gesture tells the decoder of an object's extent; an
  // object under the target from both its click and its box is one the model does not give a visitor at once.
  const pairs = rows.filter((r) => r.target.pair);
  if (pairs.length) {
    const at = (v: number) => v >= 0.85;
    console.log(
      `\nAll pair objects (≥ 0.85): the click ${pairs.filter((r) => at(r.sam.click)).length} of ${pairs.length}; the object's own box ${pairs.filter((r) => at(r.sam.box)).length} of ${pairs.length}; neither ${pairs.filter((r) => !at(r.sam.click) && !at(r.sam.box)).length}.`,
    );
  }
}

/**
 * Click → mask PNG through the selection engine, as an engine host runs it for the page (the selection's box alone),
 * on photos at 1920x1280.
 */
async function latency() {
  const ctx = { threads, progress: () => {}, signal: new AbortController().signal } as unknown as Parameters<
    typeof selectEngine.run
  >[1];
  await selectEngine.warm?.({ threads } as never);
  const first: number[] = [];
  const later: number[] = [];
  for (const photo of (await photos()).filter((p) => p.targets.length === 2)) {
    const image = await sharp(photo.image).resize(1920, 1280, { fit: 'fill' }).png().toBuffer();
    const meta = await sharp(photo.image).metadata();
    const [kx, ky] = [1920 / (meta.width as number), 1280 / (meta.height as number)];
    const key = `${photoKey(image)}-${Date.now()}`;
    const run = (request: SelectRequest) =>
      selectEngine.run(
        {
          image,
          params: { ...paramsOf(request), kind: 'select', photo: key, crop: true },
          forOperation: 'object-removal',
        },
        ctx,
      );
    const clicks = photo.targets.map((t) => ({ x: t.point.x * kx, y: t.point.y * ky, label: 1 as const }));
    let t = performance.now();
    await run({ points: [clicks[0] as never] });
    first.push(ms(t));
    for (const request of [
      { points: [clicks[1] as never] },
      { points: [clicks[1] as never], level: 1 },
      { points: [clicks[0] as never, { ...(clicks[1] as object), label: 0 } as never] },
    ]) {
      t = performance.now();
      await run(request);
      later.push(ms(t));
    }
  }
  console.log('\n## Latency at 1920x1280 (the selection engine, click → mask PNG)\n');
  console.log('| click | n | median | worst |');
  console.log('| --- | --- | --- | --- |');
  console.log(
    `| first on a photo (decode + embedding + selection) | ${first.length} | ${median(first).toFixed(0)} ms | ${Math.max(...first).toFixed(0)} ms |`,
  );
  console.log(
    `| later (another object, larger, a point taken away) | ${later.length} | ${median(later).toFixed(0)} ms | ${Math.max(...later).toFixed(0)} ms |`,
  );
}

/** Click → mask on screen in Chromium (select-object/in-browser.ts), on the touching pairs' photos. */
async function inBrowser() {
  const pairs = await touchingPairs();
  const chosen = pairs.slice(0, Number(process.env.BENCH_BROWSER_PHOTOS ?? 12) + 1);
  const times = await clickToScreen(chosen.map((p) => ({ ...p, points: p.objects.map((o) => o.point) })));
  console.log('\n## Click to mask on screen in Chromium, 1920x1280 (the real server, signed in)\n');
  console.log('| click | n | median | worst |');
  console.log('| --- | --- | --- | --- |');
  console.log(
    `| first on a photo (from the photo chosen; Select object and the click as soon as it shows) | ${times.first.length} | ${median(times.first).toFixed(0)} ms | ${Math.max(...times.first).toFixed(0)} ms |`,
  );
  console.log(
    `| later (another object, Larger, an Alt-click taking one away) | ${times.later.length} | ${median(times.later).toFixed(0)} ms | ${Math.max(...times.later).toFixed(0)} ms |`,
  );
  for (const [part, what] of [
    ['prepare', 'first: the preparation request (the photo sent)'],
    ['request', 'first: the selection request'],
  ] as const) {
    const v = times.firstParts.map((p) => p[part]);
    console.log(`| ${what} | ${v.length} | ${median(v).toFixed(0)} ms | ${Math.max(...v).toFixed(0)} ms |`);
  }
  const parts = times.laterParts;
  for (const [part, what] of [
    ['before', 'later: the page, click to request'],
    ['request', 'later: the request, sent to answered'],
    ['after', 'later: the page, answer to mask on screen'],
  ] as const) {
    const v = parts.map((p) => p[part]);
    console.log(`| ${what} | ${v.length} | ${median(v).toFixed(0)} ms | ${Math.max(...v).toFixed(0)} ms |`);
  }
  console.log(
    `\nlater clicks in order, ms (the request's part): ${times.later.map((t, i) => `${t.toFixed(0)} (${parts[i]?.request.toFixed(0)})`).join(' ')}`,
  );
}

if (!only || only === 'quality') printQuality(await quality());
if (!only || only === 'latency') await latency();
if (!only || only === 'browser') await inBrowser();
