/**
 * Scratch and dust detection for old photos, classical and model-free.
 *
 * Defects are thin or small marks much lighter (emulsion lost, dust on a print) or darker (dust on a negative,
 * cracks) than what surrounds them. A morphological top-hat finds every light or dark structure too narrow to hold
 * a STRUCTURE x STRUCTURE square (Y - opening(Y), closing(Y) - Y); hysteresis keeps strong marks with their fainter
 * edges (or a line detector finds a mark fainter than the texture around it by its mean along a segment); then
 * each connected mark is judged by its shape: small compact specks are dust, long thin marks (or pieces of one that
 * line up) are scratches, and anything else (hair, foliage, text: wide networks of texture) is left alone. A long
 * thin mark is still a real object, not a scratch, when a line of the other polarity runs beside it (a lit rod:
 * tripod legs, poles) or when it keeps the colour of what it lies on (a scratch shows bare paper or film).
 */

import { boxMean } from '../raster/guided-filter.js';
import { type Component, components, lineOpen, rankFilter, shape, topHat } from '../raster/morphology.js';
import { followScratch } from './follow-scratch.js';

export interface DefectOptions {
  /** 0–1, 0.5 by default: higher finds fainter marks (and risks taking fine detail for damage). */
  sensitivity?: number;
  /** Pixels that are never defects (eyes and lips, whose catchlights look like dust), nonzero = protected. */
  protect?: Uint8Array;
  /**
   * Saturation per pixel (0-1, (max - min) / max of R, G, B) of a colour photo. A scratch shows the bare paper or
   * film, so it is greyer than the colour it crosses; a thin object keeps colour like its neighbours'.
   */
  saturation?: Float32Array;
  /**
   * The luminance before any smoothing, when `y` was smoothed: the marks' rims are judged on it, so that a mark's
   * mask is as narrow as the mark and not as wide as its blurred image.
   */
  unsmoothed?: Float32Array;
}

export interface DefectResult {
  /** One byte per pixel, 255 = defect. */
  mask: Uint8Array;
  scratches: number;
  dust: number;
}

/** Reference long side: sizes below are for a photo of this size and scale with the photo. */
const REFERENCE = 1024;

/** About 200 evenly spread pixels of a mark: enough to judge it, whatever its length. */
function samplePoints(pixels: number[]): number[] {
  const step = Math.max(1, Math.floor(pixels.length / 200));
  const out: number[] = [];
  for (let i = 0; i < pixels.length; i += step) out.push(pixels[i] as number);
  return out;
}

/**
 * A scratch lies across one surface: the photo is about the same on its two sides. A highlight or shadow along an
 * object's edge (a rim, a fold, a stripe's border) has different things on each side, and the same side is the
 * brighter one all along it; a scratch running through texture (along grass blades) finds its sides differing too,
 * but either side brighter by turns. True when, at enough points of the mark, the difference across it is under half
 * the mark's typical contrast, or when the points that differ do not favour one side (ONE_SIDED).
 */
function sameOnBothSides(
  y: Float32Array,
  w: number,
  h: number,
  pixels: number[],
  angle: number,
  offset: number,
  contrast: Float32Array,
): boolean {
  const nx = -Math.sin(angle) * offset;
  const ny = Math.cos(angle) * offset;
  const points = samplePoints(pixels);
  const own = points.map((p) => contrast[p] as number).sort((a, b) => a - b);
  const bar = 0.5 * (own[own.length >> 1] as number);
  let same = 0;
  let n = 0;
  let firstBrighter = 0;
  for (const p of points) {
    const px = p % w;
    const py = (p - px) / w;
    const ax = Math.round(px + nx);
    const ay = Math.round(py + ny);
    const bx = Math.round(px - nx);
    const by = Math.round(py - ny);
    if (ax < 0 || ay < 0 || bx < 0 || by < 0 || ax >= w || bx >= w || ay >= h || by >= h) continue;
    const d = (y[ay * w + ax] as number) - (y[by * w + bx] as number);
    if (Math.abs(d) < bar) same++;
    else if (d > 0) firstBrighter++;
    n++;
  }
  const differ = n - same;
  const oneSided = differ > 0 && Math.max(firstBrighter, differ - firstBrighter) / differ >= ONE_SIDED;
  return n === 0 || same >= SAME_SIDES * n || !oneSided;
}

/**
 * A lit rod or tube (a tripod leg, a pole, a window bar) shows a highlight beside a dark rim, both running along it:
 * fine structure of the other polarity at a steady distance beside the mark over much of its length. A scratch is
 * one line on its own; texture it crosses gives other-polarity specks too, but fainter and at scattered distances.
 * Returns the largest share of the mark's sampled points with a companion within one pixel of one same distance
 * across (`own` and `other`: the top-hats of the mark's polarity and of the other one).
 */
function companionShare(
  own: Float32Array,
  other: Float32Array,
  w: number,
  h: number,
  pixels: number[],
  angle: number,
  reach: number,
  bar: number,
): number {
  const nx = -Math.sin(angle);
  const ny = Math.cos(angle);
  const span = 2 * reach + 1;
  // Per sampled point: the other polarity's response at each distance across (-reach..reach), and the mark's own.
  const across: Float32Array[] = [];
  const strengths: number[] = [];
  for (const p of samplePoints(pixels)) {
    const px = p % w;
    const py = (p - px) / w;
    const row = new Float32Array(span);
    for (let d = -reach; d <= reach; d++) {
      const x = Math.round(px + nx * d);
      const yy = Math.round(py + ny * d);
      if (x >= 0 && yy >= 0 && x < w && yy < h) row[d + reach] = other[yy * w + x] as number;
    }
    across.push(row);
    strengths.push(own[p] as number);
  }
  if (!across.length) return 0;
  strengths.sort((x, y) => x - y);
  // A companion must stand out like the mark does, not as faintly as texture: a third of its typical contrast.
  const need = Math.max(bar, COMPANION_CONTRAST * (strengths[strengths.length >> 1] as number));
  let best = 0;
  for (let d = 0; d < span; d++) {
    let n = 0;
    for (const row of across) {
      const near = Math.max(row[d - 1] ?? 0, row[d] as number, row[d + 1] ?? 0);
      if (near >= need) n++;
    }
    best = Math.max(best, n);
  }
  return best / across.length;
}

/**
 * True when a mark keeps the colour around it: the median saturation of its core is at least `keep` times that of
 * the photo just beside it, and that is coloured at all (a scratch on grey shows nothing here).
 */
function keepsColour(
  saturation: Float32Array,
  contrast: Float32Array,
  w: number,
  h: number,
  pixels: number[],
  angle: number,
  offset: number,
  keep: number,
): boolean {
  const nx = -Math.sin(angle) * offset;
  const ny = Math.cos(angle) * offset;
  // The mark's core (its more contrasted half): its soft edges blend with the colour beside it.
  const sampled = samplePoints(pixels).sort((a, b) => (contrast[b] as number) - (contrast[a] as number));
  const own = sampled.slice(0, Math.max(1, sampled.length >> 1)).map((p) => saturation[p] as number);
  const beside: number[] = [];
  for (const p of sampled) {
    const px = p % w;
    const py = (p - px) / w;
    for (const k of [-1, 1]) {
      const x = Math.round(px + k * nx);
      const y = Math.round(py + k * ny);
      if (x >= 0 && y >= 0 && x < w && y < h) beside.push(saturation[y * w + x] as number);
    }
  }
  const median = (v: number[]) => v.sort((a, b) => a - b)[v.length >> 1] ?? 0;
  const around = median(beside);
  return around >= COLOURED && median(own) >= keep * around;
}

/** Median and MAD-based standard deviation of a sample of the values (every 7th). */
function robustSpread(v: Float32Array): { median: number; spread: number } {
  const sample = new Float32Array(Math.ceil(v.length / 7));
  for (let i = 0, j = 0; i < v.length; i += 7, j++) sample[j] = v[i] as number;
  sample.sort();
  const median = sample[sample.length >> 1] as number;
  for (let i = 0; i < sample.length; i++) sample[i] = Math.abs((sample[i] as number) - median);
  sample.sort();
  return { median, spread: 1.4826 * (sample[sample.length >> 1] as number) };
}

/** A half-size mark's pixels at full size: those of each 2x2 block whose contrast `t` reaches `bar`. */
function fullSizePixels(half: number[], hw: number, t: Float32Array, w: number, h: number, bar: number): number[] {
  const pixels: number[] = [];
  for (const q of half) {
    const qx = q % hw;
    const qy = (q - qx) / hw;
    for (let dy = 0; dy < 2; dy++) {
      for (let dx = 0; dx < 2; dx++) {
        const fx = 2 * qx + dx;
        const fy = 2 * qy + dy;
        if (fx < w && fy < h && (t[fy * w + fx] as number) >= bar) pixels.push(fy * w + fx);
      }
    }
  }
  return pixels;
}

/**
 * The top-hat `t` at half size (2x2 maxima), max-pooled further to at most LINE_SIDE on the long side (`cell` half-size
 * pixels a side), and per angle each pooled pixel's line contrast: the mean along a segment of `length` half-size px
 * through it less the mean of the square around (a line stands out of what surrounds it, texture does not); with the
 * median and spread of the best angle's.
 */
function lineContrast(t: Float32Array, w: number, h: number, hw: number, hh: number, length: number) {
  const half = new Float32Array(hw * hh);
  for (let py = 0; py < h; py++) {
    for (let px = 0; px < w; px++) {
      const j = (py >> 1) * hw + (px >> 1);
      half[j] = Math.max(half[j] as number, t[py * w + px] as number);
    }
  }
  const cell = Math.max(1, Math.ceil(Math.max(hw, hh) / LINE_SIDE));
  const pw = Math.ceil(hw / cell);
  const ph = Math.ceil(hh / cell);
  const pooled = new Float32Array(pw * ph);
  for (let y = 0; y < hh; y++) {
    for (let x = 0; x < hw; x++) {
      const j = Math.floor(y / cell) * pw + Math.floor(x / cell);
      pooled[j] = Math.max(pooled[j] as number, half[y * hw + x] as number);
    }
  }
  const around = boxMean(pooled, pw, ph, Math.round(length / cell / 2));
  const best = new Float32Array(pw * ph);
  const means = Array.from({ length: ANGLES }, (_, a) => {
    const m = segmentMeans(pooled, pw, ph, (a * Math.PI) / ANGLES, length / cell);
    for (let i = 0; i < m.length; i++) {
      m[i] = (m[i] as number) - (around[i] as number);
      best[i] = Math.max(best[i] as number, m[i] as number);
    }
    return m;
  });
  return { half, pooled, pw, ph, cell, means, ...robustSpread(best) };
}

/** Offsets of a straight segment of about `length` px at `angle`, centred on its pixel. */
function segmentOffsets(w: number, angle: number, length: number): { dx: number; dy: number; off: number }[] {
  const r = Math.max(1, Math.round(length / 2));
  const out = [];
  for (let i = -r; i <= r; i++) {
    const dx = Math.round(i * Math.cos(angle));
    const dy = Math.round(i * Math.sin(angle));
    out.push({ dx, dy, off: dy * w + dx });
  }
  return out;
}

/** The mean of `v` along the segment centred on each pixel (pixels off the plane count as 0). */
function segmentMeans(v: Float32Array, w: number, h: number, angle: number, length: number): Float32Array {
  const offsets = segmentOffsets(w, angle, length);
  const out = new Float32Array(w * h);
  const n = offsets.length;
  for (const { dx, dy, off } of offsets) {
    const x0 = Math.max(0, -dx);
    const x1 = Math.min(w, w - dx);
    for (let y = Math.max(0, -dy); y < Math.min(h, h - dy); y++) {
      const row = y * w;
      for (let x = x0; x < x1; x++) out[row + x] = (out[row + x] as number) + (v[row + x + off] as number);
    }
  }
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / n;
  return out;
}

/**
 * Marks in `code` (bit-coded contrast levels) every pixel of `v` reaching `pixelBar` on a segment at `angle` whose line
 * contrast `means` reaches `lineBar` (3, strong) or LINE_LOW of it (1, weak).
 */
function markSupported(
  code: Uint8Array,
  means: Float32Array,
  v: Float32Array,
  w: number,
  h: number,
  angle: number,
  length: number,
  lineBar: number,
  pixelBar: number,
): void {
  const offsets = segmentOffsets(w, angle, length);
  for (let c = 0; c < means.length; c++) {
    const m = means[c] as number;
    if (m < LINE_LOW * lineBar) continue;
    const level = m >= lineBar ? 3 : 1;
    const cx = c % w;
    const cy = (c - cx) / w;
    for (const { dx, dy, off } of offsets) {
      const x = cx + dx;
      const y = cy + dy;
      if (x >= 0 && y >= 0 && x < w && y < h && (v[c + off] as number) >= pixelBar)
        code[c + off] = Math.max(code[c + off] as number, level);
    }
  }
}

/**
 * The half-size pixels reaching `pixelBar` on a segment at angle `a` whose line contrast reaches `lineBar` (3) or
 * LINE_LOW of it (1), found on the pooled plane.
 */
function lineSupported(
  lines: ReturnType<typeof lineContrast>,
  a: number,
  hw: number,
  hh: number,
  length: number,
  lineBar: number,
  pixelBar: number,
): Uint8Array {
  const { pooled, pw, ph, cell, half } = lines;
  const marked = new Uint8Array(pw * ph);
  const angle = (a * Math.PI) / ANGLES;
  markSupported(marked, lines.means[a] as Float32Array, pooled, pw, ph, angle, length / cell, lineBar, pixelBar);
  if (cell === 1) return marked;
  const out = new Uint8Array(hw * hh);
  for (let y = 0; y < hh; y++) {
    for (let x = 0; x < hw; x++) {
      const level = marked[Math.floor(y / cell) * pw + Math.floor(x / cell)] as number;
      if (level && (half[y * hw + x] as number) >= pixelBar) out[y * hw + x] = level;
    }
  }
  return out;
}

/**
 * A speck's core: its peak pixel first, then the pixels joined to it at `bar` or more (at most `limit` + 1 of them:
 * more is no speck).
 */
function speckCore(c: Component, t: Float32Array, w: number, bar: number, limit: number): number[] {
  let peak = c.pixels[0] as number;
  for (const p of c.pixels) if ((t[p] as number) > (t[peak] as number)) peak = p;
  const core = [peak];
  const seen = new Set(core);
  for (let i = 0; i < core.length && core.length <= limit; i++) {
    const p = core[i] as number;
    const x = p % w;
    for (let dy = -w; dy <= w; dy += w) {
      for (let dx = -1; dx <= 1; dx++) {
        const q = p + dy + dx;
        if (x + dx < 0 || x + dx >= w || q < 0 || q >= t.length || seen.has(q) || (t[q] as number) < bar) continue;
        seen.add(q);
        core.push(q);
      }
    }
  }
  return core;
}

/** How many pixels of the (2r+1)^2 window around pixel `centre` reach `bar`. */
function countAbove(t: Float32Array, w: number, h: number, centre: number, r: number, bar: number): number {
  const cx = centre % w;
  const cy = (centre - cx) / w;
  let n = 0;
  for (let y = Math.max(0, cy - r); y <= Math.min(h - 1, cy + r); y++)
    for (let x = Math.max(0, cx - r); x <= Math.min(w - 1, cx + r); x++) if ((t[y * w + x] as number) >= bar) n++;
  return n;
}

/** A thin mark found at one sampled angle, with its two ends. */
interface Piece {
  pixels: number[];
  /** The angle's index, 0..ANGLES-1. */
  a: number;
  /** Found only on average along a segment (it must run longer). */
  faint: boolean;
  /** Too short to be a scratch on its own. */
  short: boolean;
  /** Its two ends: the mean position of its pixels within 2 px of each extreme along the angle. */
  ends: [number, number][];
}

function piece(pixels: number[], w: number, a: number, faint: boolean, short: boolean): Piece {
  const dx = Math.cos((a * Math.PI) / ANGLES);
  const dy = Math.sin((a * Math.PI) / ANGLES);
  const along = pixels.map((p) => (p % w) * dx + Math.floor(p / w) * dy);
  const lo = along.reduce((m, v) => Math.min(m, v));
  const hi = along.reduce((m, v) => Math.max(m, v));
  const end = (near: (v: number) => boolean): [number, number] => {
    let x = 0;
    let y = 0;
    let n = 0;
    pixels.forEach((p, i) => {
      if (!near(along[i] as number)) return;
      x += p % w;
      y += Math.floor(p / w);
      n++;
    });
    return [x / n, y / n];
  };
  return { pixels, a, faint, short, ends: [end((v) => v <= lo + 2), end((v) => v >= hi - 2)] };
}

/**
 * Pieces that line up: at the same or neighbouring sampled angles, an end of one within `gap` px of an end of the
 * other, the step between them running along the line (off it by at most `across` px, plus what the angles' spacing
 * allows over the step). Groups of pieces linked so, each a chain.
 */
function chains(pieces: Piece[], gap: number, across: number): Piece[][] {
  const parent = pieces.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  const slope = Math.tan(Math.PI / ANGLES);
  const lineUp = (p: Piece, q: Piece) => {
    const turn = Math.abs(p.a - q.a);
    if (Math.min(turn, ANGLES - turn) > 1) return false;
    const dx = Math.cos((p.a * Math.PI) / ANGLES);
    const dy = Math.sin((p.a * Math.PI) / ANGLES);
    return p.ends.some(([px, py]) =>
      q.ends.some(([qx, qy]) => {
        const step = Math.hypot(qx - px, qy - py);
        return step <= gap && Math.abs((qx - px) * dy - (qy - py) * dx) <= across + slope * step;
      }),
    );
  };
  for (let i = 0; i < pieces.length; i++)
    for (let j = i + 1; j < pieces.length; j++)
      if (lineUp(pieces[i] as Piece, pieces[j] as Piece)) parent[root(j)] = root(i);
  const groups = new Map<number, Piece[]>();
  pieces.forEach((p, i) => {
    const group = groups.get(root(i));
    if (group) group.push(p);
    else groups.set(root(i), [p]);
  });
  return [...groups.values()];
}

const ANGLES = 24;
/**
 * The line contrast is computed on the top-hat max-pooled to at most this long side: its cost grows with the pixels
 * times the segment's length (a 12 MP restoration took 46.6 s unpooled, 21.0 s pooled; up to 1024 px nothing changes).
 */
const LINE_SIDE = 512;
/**
 * A segment's line contrast that marks a line: LINE_BASE of the pixel threshold, or LINE_SPREADS spreads above the
 * median (at 4 on the seen sets, more texture lines joined the scratches and the stream lost 6 points); a pixel on
 * it belongs to the mark from PIXEL_SHARE of that bar; a segment from LINE_LOW of it extends a line that reaches the
 * bar elsewhere (a scratch crossing texture reaches it in pieces).
 */
const LINE_BASE = 0.75;
const LINE_SPREADS = 5;
const PIXEL_SHARE = 0.5;
const LINE_LOW = 0.6;
/**
 * A mark found only on average runs at least this many times a scratch's least length: at 1.5 the cameraman's rest
 * fell to 31.7 dB (camera parts and grass taken), at 2 it stays at 32.4 dB, and 2.7 points of restored pixels are lost.
 */
const FAINT_LENGTH = 2;
/**
 * Widest mark the search on the unsmoothed photo takes, as a share of the widest scratch: only thin marks lose to the
 * smoothing. On the quality bench's 21 seen restoration photos, 0.5, 0.7 and 1 brought back 82.0, 81.9 and 82.6 % of
 * the damaged pixels (81.2 % without this search), the rests 33.4, 33.2 and 33.0 dB; at 1 the tripod's braces came
 * in and the restoration test's cameraman fell under its rest's bar.
 */
const THIN = 0.5;
/** Share of a scratch's points that must look alike on its two sides (a scratch may cross a few edges). */
const SAME_SIDES = 0.35;
/**
 * The share of a mark's differing points brighter on the same side from which it is an edge's highlight or shadow.
 * Decided on the seen sets: 0.8 brought the meadow's repaired damage from 67.0 to 80.1 % (0.7: 77.6 %) and lowered
 * the undamaged rest's PSNR by at most 2.4 dB (camera, to 33.3 dB).
 */
const ONE_SIDED = 0.8;
/**
 * Share of a mark's points with a companion line of the other polarity that makes it a rod, not a scratch. On the
 * fixtures with synthetic scratches, scratches reach at most 0.73 and tripod legs mostly 0.76-1.
 */
const COMPANION = 0.75;
/** A companion stands out at least this share of the mark's own contrast (texture specks are fainter). */
const COMPANION_CONTRAST = 0.33;
/** Saturation beside a mark from which its colour says something. */
const COLOURED = 0.15;
/**
 * The share of that saturation a real object keeps, for light and dark marks. A dark scratch that lets a little of
 * the photo through keeps more of it, (max - min) / max being unsteady near black: dark marks must keep nearly all.
 * On the damaged fixtures no drawn scratch was lost to these bars; on the clean ones they halve the false marks.
 */
const KEEPS_LIGHT = 0.5;
const KEEPS_DARK = 0.85;
/** Fine structure counts against a speck's isolation from this share of the speck's own contrast. */
const RIVALS = 0.5;
/** The share of the pixels around a speck that may reach that contrast: a speck stands out of texture. */
const ALONE = 0.06;
/**
 * The same for a speck's core, carved out of texture it joins at the low threshold. Decided on the seen sets: at
 * 0.01 the specks brought back rose from 65.9 to 70.7 % and the rests fell by 0.40 dB (at 0.02 and 0.06: 71.3 and
 * 72.4 %, by 0.66 and 1.21 dB, 11 photos under 32 dB).
 */
const JOINED_RIVALS = 0.01;
/** Least contrast (grey levels) of a mark's pixel on the unsmoothed photo. */
const MIN_RIM = 6;
/** Share of the nearby peak contrast from which a pixel belongs to the mark (its rim at 30 % coverage and more). */
const OUTLINE = 0.3;
/**
 * Share of the nearby peak contrast from which a found pixel is the mark's own and seeds its outline. On the quality
 * bench's 21 seen restoration photos, 0 (every found pixel), 0.5, 0.7 and 0.8 brought back 80.8, 81.0, 81.2 and
 * 80.9 % of the damaged pixels, the rests 32.7, 32.9, 33.5 and 34.3 dB.
 */
const CORE = 0.7;

/** Finds scratches and dust in a luminance plane (0–255). */
export function detectDefects(y: Float32Array, w: number, h: number, opts: DefectOptions = {}): DefectResult {
  const scale = Math.max(w, h) / REFERENCE;
  const sensitivity = Math.min(1, Math.max(0, opts.sensitivity ?? 0.5));
  // Marks narrower than this (in pixels) are candidates: scratches and dust up to ~10 px across at 1024.
  const k = Math.max(5, 2 * Math.round(5.5 * scale) + 1);
  // The smoothing before detection widens a speck by about two pixels.
  const maxDust = (k + 2) ** 2;
  // A scratch holds straight segments this long at some angle, runs at least minScratchLength in all and is thin.
  const segment = Math.max(16, Math.round(64 * scale));
  const minScratchLength = Math.max(24, 100 * scale);
  // 1.2x as wide found 0.3 points more of the seen photos' damage and cost their rests 1.1 dB: real lines came in too.
  const maxScratchWidth = Math.max(5.5, 8 * scale);
  // How far beyond a scratch's edge its two sides are compared.
  const sideGap = Math.max(2, 3 * scale);
  // Dust must stand alone: little other fine structure within this radius (texture is not dust).
  const isolation = 2 * k;
  // Contrast needed to start a mark, in grey levels: 40 at sensitivity 0, 12 at 1 (or more, with noise).
  const baseHigh = 40 - 28 * sensitivity;
  const protectedMark = (c: Component) => opts.protect !== undefined && c.pixels.some((p) => opts.protect?.[p]);

  const mask = new Uint8Array(w * h);
  // Each mark's polarity: 1 light, -1 dark (its outline is judged in it).
  const polarity = new Int8Array(w * h);
  // The search for straight segments runs at half size (2x2 maxima keep thin marks): a quarter of the work.
  const hw = (w + 1) >> 1;
  const hh = (h + 1) >> 1;
  const bufA = new Uint8Array(hw * hh);
  const bufB = new Uint8Array(hw * hh);
  let scratches = 0;
  let dust = 0;
  const hats = { [1]: topHat(y, w, h, k, 1), [-1]: topHat(y, w, h, k, -1) };
  // The same on the photo before smoothing, when given: thin marks are searched for on it too, and outlined on it.
  const exact = opts.unsmoothed
    ? { [1]: topHat(opts.unsmoothed, w, h, k, 1), [-1]: topHat(opts.unsmoothed, w, h, k, -1) }
    : hats;
  // Noise and grain give every pixel some top-hat response: thresholds sit well above its typical spread.
  const levelsOf = (plane: Float32Array) => {
    const { median, spread } = robustSpread(plane);
    return { high: Math.max(baseHigh, median + 5 * spread), low: Math.max(baseHigh / 2, median + 2.5 * spread) };
  };
  for (const sign of [1, -1] as const) {
    const t = hats[sign];
    const other = hats[-sign as 1 | -1];
    const { high, low } = levelsOf(t);
    const exactLevels = exact[sign] !== t ? levelsOf(exact[sign]) : undefined;
    // Contrast levels, bit-coded (0 below low, 1 from low, 3 from high) so that AND and OR are min and max: flat
    // openings commute with thresholds, so opening these bytes gives exactly the float opening's hysteresis sets.
    const code = (v: number) => (v >= high ? 3 : v >= low ? 1 : 0);
    const tLevel = new Uint8Array(w * h);
    for (let i = 0; i < t.length; i++) tLevel[i] = code(t[i] as number);
    const tHalf = new Uint8Array(hw * hh);
    for (let py = 0; py < h; py++) {
      for (let px = 0; px < w; px++) {
        const i = py * w + px;
        const j = (py >> 1) * hw + (px >> 1);
        tHalf[j] = (tHalf[j] as number) | (tLevel[i] as number);
      }
    }
    // Scratches: marks that hold a straight segment at one angle, judged angle by angle so that texture running
    // other ways does not join them. The 2x2 maxima widen marks by up to a pixel, so a thin, gently curved scratch
    // still holds a segment at the nearest sampled angle.
    // A segment may also hold the mark on average: texture's contrast averages out along a line and a scratch's
    // does not, so a scratch fainter than texture's pixels is still found along its length. Found so, with less
    // evidence per pixel, it must run longer. The smoothing halves the contrast of a mark a pixel or two wide, so thin
    // marks are also searched for so on the unsmoothed photo, at its own thresholds, and judged on it.
    const lineSearch = (own: Float32Array, rival: Float32Array, ownLow: number, maxWidth: number) => {
      const lines = lineContrast(own, w, h, hw, hh, segment / 2);
      const lineBar = Math.max(LINE_BASE * baseHigh, lines.median + LINE_SPREADS * lines.spread);
      return { own, rival, lines, lineBar, pixelBar: Math.min(ownLow, PIXEL_SHARE * lineBar), maxWidth };
    };
    const searches = [lineSearch(t, other, low, maxScratchWidth)];
    if (exactLevels)
      searches.push(lineSearch(exact[sign], exact[-sign as 1 | -1], exactLevels.low, THIN * maxScratchWidth));
    const onScratch = new Uint8Array(w * h);
    // Marks that pass every test but the length wait for a chain: a scratch broken where it crosses busy parts, or
    // curving from one sampled angle to the next, is found in pieces that line up.
    const pieces: Piece[] = [];
    // A long thin mark is a real object when the photo differs on its two sides (an edge's highlight), when a line
    // of the other polarity runs beside it (a rod: a highlight beside a dark rim), or when it keeps the colour of
    // what it lies on.
    // `own` and `rival`: the top-hats of the mark's polarity and of the other one, on the plane it was found on.
    const realObject = (pixels: number[], angle: number, width: number, own = t, rival = other) =>
      !sameOnBothSides(y, w, h, pixels, angle, width + sideGap, t) ||
      companionShare(own, rival, w, h, pixels, angle, Math.ceil(width / 2 + sideGap), low) >= COMPANION ||
      (opts.saturation !== undefined &&
        keepsColour(opts.saturation, t, w, h, pixels, angle, width + sideGap, sign > 0 ? KEEPS_LIGHT : KEEPS_DARK));
    // A scratch across a face is repaired up to the eyes and lips, which stay as they are.
    const markScratch = (pixels: number[]) => {
      for (const p of pixels) if (!opts.protect?.[p]) onScratch[p] = 1;
    };
    const kept: number[][] = [];
    const keepScratch = (pixels: number[]) => {
      scratches++;
      kept.push(pixels);
      markScratch(pixels);
    };
    for (let a = 0; a < ANGLES; a++) {
      const angle = (a * Math.PI) / ANGLES;
      const opened = lineOpen(tHalf, hw, hh, angle, segment / 2, bufA, bufB);
      const found = [
        { marks: opened, bar: low, faint: false, own: t, rival: other, maxWidth: maxScratchWidth },
        ...searches.map((s) => ({
          ...s,
          marks: lineSupported(s.lines, a, hw, hh, segment / 2, s.lineBar, s.pixelBar),
          bar: s.pixelBar,
          faint: true,
        })),
      ];
      for (const { marks, bar, faint, own, rival, maxWidth } of found) {
        const minLength = faint ? FAINT_LENGTH * minScratchLength : minScratchLength;
        for (const half of components(marks, hw, hh, 1, 3)) {
          const pixels = fullSizePixels(half.pixels, hw, own, w, h, bar);
          if (!pixels.length) continue;
          const { length, width } = shape(pixels, w);
          if (length < segment || width > maxWidth) continue;
          if (realObject(pixels, angle, width, own, rival)) continue;
          if (length >= minLength) keepScratch(pixels);
          pieces.push(piece(pixels, w, a, faint, length < minLength));
        }
      }
    }
    for (const chain of chains(pieces, segment, maxScratchWidth)) {
      if (!chain.some((p) => p.short)) continue;
      const pixels = [...new Set(chain.flatMap((p) => p.pixels))];
      const { length, width } = shape(pixels, w);
      const minLength = chain.every((p) => p.faint) ? FAINT_LENGTH * minScratchLength : minScratchLength;
      if (length >= minLength && width <= maxScratchWidth) keepScratch(pixels);
    }
    // Each scratch followed past its ends, where busy parts hid it from the search above; what the follow finds must
    // pass the same tests.
    for (const scratch of kept) {
      for (const more of followScratch(t, w, h, scratch, Math.round(segment / 2), low)) {
        const width = Math.min(maxScratchWidth, shape(more.pixels, w).width);
        if (more.pixels.length >= 3 && !realObject(more.pixels, more.angle, width)) markScratch(more.pixels);
      }
    }

    // Dust: small compact marks with little other fine structure as strong as they are around them (a speck on
    // texture stands out of it; a bright grain of the texture does not).
    // A speck joined to texture at the low threshold is judged by its core, and must stand more alone.
    // Then the same on the unsmoothed photo, at its own thresholds, for specks the smoothing faded (a speck a pixel
    // or two across loses most of its contrast to it); there a speck lacks the two pixels the smoothing adds.
    const window = (2 * isolation + 1) ** 2;
    const findDust = (plane: Float32Array, { low, high }: { low: number; high: number }, maxDust: number) => {
      for (const found of components(plane, w, h, low, high)) {
        // The contrast from which fine structure is the speck's own (its core) or a rival of it.
        const bar = Math.max(high, RIVALS * found.peak);
        const joined = found.pixels.length > maxDust;
        const c = joined ? { ...found, pixels: speckCore(found, plane, w, bar, maxDust) } : found;
        if (c.pixels.length > maxDust || c.peak < 1.5 * high) continue;
        // On the unsmoothed photo, a speck already found on the smoothed one is not counted again.
        if (protectedMark(c) || c.pixels.some((p) => onScratch[p] || (plane !== t && mask[p]))) continue;
        const { length } = shape(c.pixels, w);
        if (length > k * 1.5) continue;
        const centre = c.pixels[joined ? 0 : Math.floor(c.pixels.length / 2)] as number;
        let strong = 0;
        for (const p of c.pixels) strong += (plane[p] as number) >= bar ? 1 : 0;
        if ((countAbove(plane, w, h, centre, isolation, bar) - strong) / window > (joined ? JOINED_RIVALS : ALONE))
          continue;
        dust++;
        for (const p of c.pixels) {
          mask[p] = 255;
          polarity[p] = sign;
        }
      }
    };
    findDust(t, { low, high }, maxDust);
    if (exactLevels) findDust(exact[sign], exactLevels, k * k);
    for (let i = 0; i < mask.length; i++) {
      if (!onScratch[i]) continue;
      mask[i] = 255;
      polarity[i] = sign;
    }
  }
  // The marks' outline. Found on a smoothed plane, a mark is wider than it is. On the unsmoothed photo, the found
  // pixels that stand out in the mark's polarity by CORE of the strongest contrast within two pixels are its line;
  // a pixel belongs to the mark when it is one of them or beside one and stands out by OUTLINE of that contrast (the
  // mark's anti-aliased rim down to that coverage), so that texture beside a mark is not filled over.
  const peak = { [1]: rankFilter(exact[1], w, h, 5, true), [-1]: rankFilter(exact[-1], w, h, 5, true) };
  const found = Uint8Array.from(mask);
  mask.fill(0);
  for (let i = 0; i < mask.length; i++) {
    if (!found[i]) continue;
    const s = polarity[i] as 1 | -1;
    if ((exact[s][i] as number) < Math.max(MIN_RIM, CORE * (peak[s][i] as number))) continue;
    const bar = Math.max(MIN_RIM, OUTLINE * (peak[s][i] as number));
    const x = i % w;
    // The pixel and its eight neighbours, each taken when it stands out enough in this mark's polarity.
    for (let dy = -w; dy <= w; dy += w) {
      for (let dx = -1; dx <= 1; dx++) {
        const j = i + dy + dx;
        if (j >= 0 && j < mask.length && x + dx >= 0 && x + dx < w && (exact[s][j] as number) >= bar) mask[j] = 255;
      }
    }
  }
  return { mask, scratches, dust };
}
