/**
 * Exemplar-based inpainting that continues structure: a priority-ordered exemplar fill (Criminisi, Pérez & Toyama
 * 2004; fill/exemplar-fill.ts) on the pyramid level where the hole is small, refined on every finer level by
 * multi-scale patch synthesis with PatchMatch, after Wexler, Shechtman & Irani 2007 and Newson, Almansa, Gousseau &
 * Pérez 2014 ("Non-local patch-based image inpainting", IPOL): an EM loop alternates PatchMatch (Barnes et al.
 * 2009: each patch touching the hole finds a similar patch wholly outside it) and a vote in which each hole pixel
 * becomes the similarity-weighted mean of what the overlapping matches say it should be. The nearest-neighbour field
 * is carried up the pyramid, so fine levels copy real full-resolution texture along the structure found below. The
 * result is blended into its border in the gradient domain (fill/poisson-blend.ts). The free fill (`ordered: false`) leaves the
 * ordered fill out: its coarsest level is found by patch matching alone, as in Wexler et al. and Newson et al.
 */
import { AppError } from '@ai-editor/core';
import type { RawImage } from '../raster/image.js';
import { dilate } from '../raster/morphology.js';
import { seededRandom } from '../raster/random.js';
import { exemplarFill } from './exemplar-fill.js';
import { backgroundSources, type SourceMap } from './fill-sources.js';
import { LOCAL_SEARCH, Matcher, seedField, upsampleField } from './patch-match.js';
import { blendFill } from './poisson-blend.js';
import {
  baseLevel,
  countPatches,
  downsample,
  downsampleAllowed,
  downsampleHole,
  invert,
  type Level,
  NC,
  upsampleHole,
} from './pyramid.js';
import { smoothThin, thinParts } from './thin-parts.js';

export interface InpaintOptions {
  /** Patch half-size: 3 gives the 7x7 patches of Newson et al. */
  patchRadius?: number;
  /** Seed for the random search, so the same input gives the same output. */
  seed?: number;
  onProgress?: (fraction: number) => void;
  /**
   * 0 for the usual fill; another number gives another fill of the same hole (other source choices, another random
   * search), for 'Try another fill'.
   */
  variation?: number;
  /** Copy from every patch outside the hole, including those of objects touching it (fill-sources.ts). */
  keepForeign?: boolean;
  /**
   * false: no ordered fill; the hole is reduced to COARSE_PIXELS, guessed smooth there and found by patch matching over
   * the whole level, then refined up the pyramid (Wexler et al. / Newson et al. alone), filled once.
   */
  ordered?: boolean;
}

export interface InpaintResult {
  image: RawImage;
  levels: number;
  /** The gradient-domain blend's mean correction (poisson-blend.ts): how far the copy's tone was off. */
  correction: number;
}

/** Levels with fewer patches to match than this get 3 EM iterations, up to LARGE_LEVEL 2, beyond that a vote. */
const SMALL_LEVEL = 15_000;
const LARGE_LEVEL = 25_000;
/**
 * The ordered fill runs on the first level whose hole has at most this many pixels. At full resolution it sees thin
 * structure exactly; on a reduced level a thin mast is a faint line that it may extend into the sky, so holes are
 * reduced only as far as the time budget needs.
 */
const STRUCTURE_PIXELS = 8000;
/** Without the ordered fill, the hole is reduced to at most this many pixels and found there in COARSE_ITERATIONS. */
const COARSE_PIXELS = 400;
const COARSE_ITERATIONS = 8;
/** Parts of the hole no wider than 2 * THIN_RADIUS + 1 pixels are strokes (thin-parts.ts). */
const THIN_RADIUS = 6;
/**
 * Strokes end as their patch fill pulled toward the membrane fill (100 sweeps, converged across a stroke
 * 13 pixels wide): a patch copied into a stroke a few pixels wide is mostly seam and misplaces the texture it
 * brings, the membrane is right on average but flat. The patch fill is split at a box of radius 2: its broad
 * shading counts 0.3 against the membrane's 0.7, its grain is kept at 0.8. Earlier one share of 0.65 for both
 * (on the tuning set's dates 0.5 gave 0.4 dB more and a seventh less texture than 0.65; the patch fill alone 1.4 dB
 * less); the split keeps the seen cases' dB (-0.01) with more texture (0.895 -> 0.910; docs/fill.md).
 */
const THIN_BLEND = { sweeps: 100, keepShading: 0.3, keepDetail: 0.8, radius: 2 };
/** The full-resolution fill gives way to the one from half resolution when it is this many times as busy (fillOnce) ... */
const BUSIER = 1.3;
/**
 * ... unless the half-resolution fill's blend needed this many levels more correction (poisson-blend.ts): its copy
 * came from elsewhere than the hole's border (asphalt pasted into a white bar whose every patch at half size held a
 * leaf). On the 317 seen cases it needed 72 more on bicycle-bar (the full-resolution fill: +3.6 dB, foreign 27.9 ->
 * 8.6 %) and at most 19 more elsewhere; at 5, splash-crown and splash-drop lost 7.8 and 2.1 dB.
 */
const OFF_TONE = 30;
/**
 * Thin parts of the hole (text, dates: thinParts) copy from everything around them, objects included, and their
 * seam is blended to every neighbour: what a stroke crosses is continued through it.
 */
function keepThinStructure(sources: SourceMap, thin: Uint8Array, w: number, h: number): void {
  const nearThin = dilate(thin, w, h, 2);
  const { nearObject, foreign } = sources;
  for (let i = 0; i < thin.length; i++) {
    if (thin[i] && nearObject) nearObject[i] = 1;
    if (nearThin[i]) foreign[i] = 0;
  }
}

/**
 * Fills the set pixels of `mask` (1 channel, same size) in an RGB image. Throws when no patch lies wholly outside
 * the mask (there is nothing to copy from).
 */
export function inpaint(image: RawImage, mask: RawImage, opts: InpaintOptions = {}): InpaintResult {
  const hole = holeOf(image, mask, opts);
  if (opts.ordered === false) return fillFrom(image, hole, opts, 1);
  return fillOnce(image, mask, hole, opts);
}

/**
 * A hole small enough for the full-resolution ordered fill is also filled from half resolution up (fillFrom), and the
 * full-resolution fill is kept unless it is more than BUSIER times as busy in the hole: there, copying patch by patch
 * at full size has pasted pieces of the objects beside the hole (a row of posts, a row of coins continued into open
 * water or a bare table), which at half size are too small to be copied and so are left out. A half-resolution fill
 * whose tone was far off its border (OFF_TONE) copied from the wrong place: the full-resolution one is kept.
 */
function fillOnce(image: RawImage, mask: RawImage, hole: Hole, opts: InpaintOptions): InpaintResult {
  const fine = fillFrom(image, hole, opts, 1);
  if (fine.levels > 1) return fine;
  const coarse = fillFrom(image, hole, { ...opts, onProgress: undefined }, 2);
  if (coarse.levels === 1) return fine;
  const busier = holeTexture(fine.image, mask) > BUSIER * holeTexture(coarse.image, mask);
  return busier && coarse.correction <= fine.correction + OFF_TONE ? coarse : fine;
}

/** What every fill of a hole shares: its pixels, its strokes and the sources that belong to the background. */
interface Hole {
  pixels: Uint8Array;
  thin: Uint8Array;
  sources: SourceMap | null;
}

function holeOf(image: RawImage, mask: RawImage, opts: InpaintOptions): Hole {
  const r = opts.patchRadius ?? 3;
  const { width: w, height: h, channels: c } = image;
  const n = w * h;
  const pixels = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (mask.data[i]) pixels[i] = 1;
  const thin = thinParts(pixels, w, h, THIN_RADIUS);
  if (opts.keepForeign) return { pixels, thin, sources: null };
  // Sources that belong to the background: patches of an object the hole touches are not copied.
  const near = dilate(pixels, w, h, r);
  const valid = new Uint8Array(n);
  for (let y = r; y < h - r; y++) for (let x = r; x < w - r; x++) valid[y * w + x] = near[y * w + x] ? 0 : 1;
  const rgb = new Float32Array(3 * n);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < 3; k++) rgb[3 * i + k] = image.data[i * c + Math.min(k, c - 1)] as number;
  const sources = backgroundSources(rgb, 3, w, h, pixels, r, valid);
  if (sources.nearObject) keepThinStructure(sources, thin, w, h);
  return { pixels, thin, sources };
}

/** Mean Sobel gradient magnitude of the grey image over the mask's pixels: how busy a fill is. */
function holeTexture(img: RawImage, mask: RawImage): number {
  const { width: w, height: h, channels: c, data } = img;
  const grey = (i: number) => ((data[i * c] as number) + (data[i * c + 1] as number) + (data[i * c + 2] as number)) / 3;
  let sum = 0;
  let n = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      if (!mask.data[i]) continue;
      const gx =
        grey(i - w + 1) + 2 * grey(i + 1) + grey(i + w + 1) - grey(i - w - 1) - 2 * grey(i - 1) - grey(i + w - 1);
      const gy =
        grey(i + w - 1) + 2 * grey(i + w) + grey(i + w + 1) - grey(i - w - 1) - 2 * grey(i - w) - grey(i - w + 1);
      sum += Math.hypot(gx, gy);
      n++;
    }
  }
  return n > 0 ? sum / n : 0;
}

/**
 * The coarsest level without the ordered fill: the hole starts as a smooth guess grown in from its border, every patch
 * gets a random match, and COARSE_ITERATIONS of PatchMatch over the whole level and voting find it. Returns where each
 * pixel was copied from when this is also the finest level.
 */
function searchWhole(m: Matcher, finest: boolean): Int32Array {
  const { w, h, hole, img } = m.l;
  smoothGuess(img, hole, w, h);
  for (const t of m.targets) m.nnf[t] = m.randomValid();
  for (let em = 0; em < COARSE_ITERATIONS; em++) {
    m.refreshDistances();
    for (let s = 0; s < 2; s++) m.sweep(s % 2 === 1, Math.max(w, h));
    if (finest && em === COARSE_ITERATIONS - 1) m.voteBest();
    else m.vote();
  }
  return m.source;
}

/** Fills the hole layer by layer from its border, each pixel the mean of its known or already filled neighbours. */
function smoothGuess(img: Float32Array, hole: Uint8Array, w: number, h: number): void {
  const known = hole.map((v) => (v ? 0 : 1));
  let front: number[] = [];
  for (let i = 0; i < hole.length; i++) if (hole[i]) front.push(i);
  while (front.length > 0) {
    const layer: number[] = [];
    const rest: number[] = [];
    for (const i of front) {
      const x = i % w;
      const y = (i - x) / w;
      const sum = new Float64Array(NC);
      let n = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const [nx, ny] = [x + dx, y + dy];
          if (nx < 0 || ny < 0 || nx >= w || ny >= h || !known[ny * w + nx]) continue;
          for (let c = 0; c < NC; c++) sum[c] = (sum[c] as number) + (img[(ny * w + nx) * NC + c] as number);
          n++;
        }
      }
      if (n === 0) {
        rest.push(i);
        continue;
      }
      layer.push(i);
      for (let c = 0; c < NC; c++) img[i * NC + c] = (sum[c] as number) / n;
    }
    if (layer.length === 0) break;
    for (const i of layer) known[i] = 1;
    front = rest;
  }
}

/**
 * One fill, with at least `minLevels` pyramid levels.
 *
 * The pyramid is halved until the hole has at most STRUCTURE_PIXELS pixels; there the hole is filled in priority
 * order (fill/exemplar-fill.ts), which carries lines and edges across it. Finer levels refine that fill with
 * PatchMatch and voting, starting from its shifts, so they add full-resolution texture without losing the
 * structure; the result is blended into its border in the gradient domain (fill/poisson-blend.ts).
 */
function fillFrom(
  image: RawImage,
  { pixels: hole, thin, sources }: Hole,
  opts: InpaintOptions,
  minLevels: number,
): InpaintResult {
  const r = opts.patchRadius ?? 3;
  const rnd = seededRandom((opts.seed ?? 1) + 7919 * (opts.variation ?? 0));
  const { width: w, height: h } = image;
  const n = w * h;
  const c = image.channels;

  // Halve while the hole is too large for the ordered fill, while enough source patches remain to copy from.
  let count = 1;
  let holePixels = hole.reduce((s, v) => s + v, 0);
  const ordered = opts.ordered !== false;
  const coarsest = ordered ? STRUCTURE_PIXELS : COARSE_PIXELS;
  for (
    let lw = w, lh = h, lhole: Uint8Array = hole;
    (holePixels > coarsest || count < minLevels) && Math.min(lw, lh) >= 8 * r;
  ) {
    const nhole = downsampleHole(lhole, lw, lh);
    lw = (lw + 1) >> 1;
    lh = (lh + 1) >> 1;
    const { sources, targets } = countPatches(nhole, lw, lh, r);
    if (sources < Math.max(64, targets / 4)) break;
    lhole = nhole;
    count++;
    holePixels = nhole.reduce((s, v) => s + v, 0);
  }
  const levels: Level[] = [baseLevel(image, hole, Math.min(2 ** (count - 1), 16))];
  while (levels.length < count) levels.push(downsample(levels[levels.length - 1] as Level));
  const base = levels[0] as Level;
  const allowedAt: (Uint8Array | undefined)[] = [sources?.allowed];
  const nearAt: (Uint8Array | undefined)[] = [sources?.nearObject];
  const objectAt: (Uint8Array | undefined)[] = [sources?.foreign];
  for (let li = 1; li < levels.length; li++) {
    const prev = allowedAt[li - 1];
    const prevNear = nearAt[li - 1];
    const fine = levels[li - 1] as Level;
    allowedAt.push(prev ? downsampleAllowed(prev, fine.w, fine.h) : undefined);
    nearAt.push(prevNear ? downsampleHole(prevNear, fine.w, fine.h) : undefined);
    const prevObject = objectAt[li - 1];
    objectAt.push(prevObject ? downsampleHole(prevObject, fine.w, fine.h) : undefined);
  }

  const matchers: Matcher[] = [];
  const work = levels.map((l) => l.w * l.h);
  const totalWork = work.reduce((a, b) => a + b, 0);
  let done = 0;
  let source: Int32Array = new Int32Array(0);
  for (let li = levels.length - 1; li >= 0; li--) {
    const level = levels[li] as Level;
    let allowed = allowedAt[li];
    let m = new Matcher(level, r, rnd, allowed, nearAt[li]);
    if (m.validList.length === 0 && allowed) {
      allowed = undefined;
      m = new Matcher(level, r, rnd);
    }
    if (m.validList.length === 0) throw new AppError('MASK_COVERS_PHOTO');
    matchers.push(m);
    if (li === levels.length - 1 && !ordered) {
      source = searchWhole(m, li === 0);
    } else if (li === levels.length - 1) {
      source = exemplarFill(level.img, level.w, level.h, level.hole, {
        r: r + 1,
        nc: NC,
        features: li > 0,
        // The ordered fill's patches are one pixel larger.
        allowed: allowed ? invert(dilate(invert(allowed), level.w, level.h, 1)) : undefined,
        nearObject: allowed ? nearAt[li] : undefined,
        object: allowed ? objectAt[li] : undefined,
        variation: opts.variation,
      });
      seedField(m, source);
    }
    // A hole small enough for the ordered fill at full resolution refines it only where it has strokes.
    const refine = li < levels.length - 1 || (li === 0 && ordered && thin.includes(1));
    if (refine) {
      if (li < levels.length - 1) {
        upsampleHole(levels[li + 1] as Level, level);
        upsampleField(matchers[matchers.length - 2] as Matcher, m);
      }
      // Small levels refine the carried-up field near where it points; large levels dominate the time and their
      // carried-up field is already good: they only re-vote, copying full-resolution texture along it.
      const targets = m.targets.length;
      const emIters = targets < SMALL_LEVEL ? 3 : targets < LARGE_LEVEL ? 2 : 1;
      const sweeps = targets < LARGE_LEVEL ? 2 : 0;
      for (let em = 0; em < emIters; em++) {
        m.refreshDistances();
        for (let sIt = 0; sIt < sweeps; sIt++) m.sweep(sIt % 2 === 1, LOCAL_SEARCH);
        if (li === 0 && em === emIters - 1) m.voteBest();
        else m.vote();
      }
      if (li === 0) source = m.source;
    }
    done += work[li] as number;
    opts.onProgress?.(done / totalWork);
  }
  const correction = blendFill(base.img, NC, w, h, hole, source, sources?.foreign);
  smoothThin(base.img, NC, w, h, thin, THIN_BLEND);

  const data = Buffer.alloc(n * c);
  image.data.copy(data);
  for (let i = 0; i < n; i++) {
    if (!base.hole[i]) continue;
    for (let k = 0; k < Math.min(c, 3); k++) {
      const v = base.img[NC * i + k] as number;
      data[i * c + k] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
    }
  }
  return { image: { ...image, data }, levels: levels.length, correction };
}
