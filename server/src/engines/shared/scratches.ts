/**
 * Scratch and dust detection for old photos, classical and model-free.
 *
 * Defects are thin or small marks much lighter (emulsion lost, dust on a print) or darker (dust on a negative,
 * cracks) than what surrounds them. A morphological top-hat finds every light or dark structure too narrow to hold
 * a STRUCTURE x STRUCTURE square (Y - opening(Y), closing(Y) - Y); hysteresis keeps strong marks with their fainter
 * edges; then each connected mark is judged by its shape: small compact specks are dust, long thin marks are
 * scratches, and anything else (hair, foliage, text: wide networks of texture) is left alone.
 */

export interface DefectOptions {
  /** 0–1, 0.5 by default: higher finds fainter marks (and risks taking fine detail for damage). */
  sensitivity?: number;
  /** Pixels that are never defects (eyes and lips, whose catchlights look like dust), nonzero = protected. */
  protect?: Uint8Array;
}

export interface DefectResult {
  /** One byte per pixel, 255 = defect. */
  mask: Uint8Array;
  scratches: number;
  dust: number;
}

/** Reference long side: sizes below are for a photo of this size and scale with the photo. */
const REFERENCE = 1024;

/** Greyscale erosion (min) or dilation (max) with a k x k square, separably, in O(1) per pixel (van Herk). */
export function rankFilter(src: Float32Array, w: number, h: number, k: number, max: boolean): Float32Array {
  const pick = max ? Math.max : Math.min;
  const pass = (input: Float32Array, len: number, count: number, stride: number, step: number) => {
    const out = new Float32Array(input.length);
    const r = k >> 1;
    const g = new Float32Array(len + k);
    const hh = new Float32Array(len + k);
    const pad = max ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    for (let line = 0; line < count; line++) {
      const base = line * stride;
      const at = (i: number) => (i < r || i >= len + r ? pad : (input[base + (i - r) * step] as number));
      // g: running extreme from each block's start; hh: from each block's end.
      for (let i = 0; i < len + k - 1; i++) g[i] = i % k === 0 ? at(i) : pick(g[i - 1] as number, at(i));
      for (let i = len + k - 2; i >= 0; i--)
        hh[i] = i === len + k - 2 || (i + 1) % k === 0 ? at(i) : pick(hh[i + 1] as number, at(i));
      for (let i = 0; i < len; i++) out[base + i * step] = pick(hh[i] as number, g[i + k - 1] as number);
    }
    return out;
  };
  const rows = pass(src, w, h, w, 1);
  return pass(rows, h, w, 1, w);
}

/** Light (sign 1) or dark (sign -1) top-hat: how far each pixel stands out of a STRUCTURE-wide neighbourhood. */
export function topHat(y: Float32Array, w: number, h: number, k: number, sign: 1 | -1): Float32Array {
  const opened =
    sign > 0
      ? rankFilter(rankFilter(y, w, h, k, false), w, h, k, true)
      : rankFilter(rankFilter(y, w, h, k, true), w, h, k, false);
  const out = new Float32Array(y.length);
  for (let i = 0; i < y.length; i++) out[i] = sign * ((y[i] as number) - (opened[i] as number));
  return out;
}

interface Component {
  pixels: number[];
  peak: number;
}

/** 8-connected components of pixels >= low that contain at least one pixel >= high (hysteresis). */
export function components(t: Float32Array, w: number, h: number, low: number, high: number): Component[] {
  const seen = new Uint8Array(t.length);
  const found: Component[] = [];
  const stack = new Int32Array(t.length);
  for (let s = 0; s < t.length; s++) {
    if (seen[s] || (t[s] as number) < high) continue;
    const pixels: number[] = [];
    let peak = 0;
    let top = 0;
    stack[top++] = s;
    seen[s] = 1;
    while (top > 0) {
      const p = stack[--top] as number;
      pixels.push(p);
      peak = Math.max(peak, t[p] as number);
      const px = p % w;
      const py = (p - px) / w;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = py + dy;
        if (yy < 0 || yy >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = px + dx;
          if (xx < 0 || xx >= w) continue;
          const q = yy * w + xx;
          if (!seen[q] && (t[q] as number) >= low) {
            seen[q] = 1;
            stack[top++] = q;
          }
        }
      }
    }
    found.push({ pixels, peak });
  }
  return found;
}

/** Length of the longest axis and mean width of a pixel set, from its second moments. */
export function shape(pixels: number[], w: number): { length: number; width: number } {
  let sx = 0;
  let sy = 0;
  for (const p of pixels) {
    sx += p % w;
    sy += Math.floor(p / w);
  }
  const n = pixels.length;
  const mx = sx / n;
  const my = sy / n;
  let xx = 0;
  let yy = 0;
  let xy = 0;
  for (const p of pixels) {
    const dx = (p % w) - mx;
    const dy = Math.floor(p / w) - my;
    xx += dx * dx;
    yy += dy * dy;
    xy += dx * dy;
  }
  xx /= n;
  yy /= n;
  xy /= n;
  const major = (xx + yy) / 2 + Math.sqrt(((xx - yy) / 2) ** 2 + xy * xy);
  // A uniform bar of length L has variance L^2/12 along it; the width is what the area leaves per unit of length.
  const length = Math.max(1, Math.sqrt(12 * major));
  return { length, width: n / length };
}

/**
 * Opening of `src` by a straight segment of about `length` px at `angle`: keeps what holds such a segment. The
 * segment is built by doubling (offsets 1, 2, 4, ...), so each pass costs one comparison per pixel. `a` and `b`
 * are scratch buffers of the same size; the result is in one of them.
 */
export function lineOpen(
  src: Float32Array,
  w: number,
  h: number,
  angle: number,
  length: number,
  a: Float32Array,
  b: Float32Array,
): Float32Array {
  const steps: [number, number][] = [];
  for (let step = 1; step < length; step *= 2)
    steps.push([Math.round(step * Math.cos(angle)), Math.round(step * Math.sin(angle))]);
  // out[p] = min or max of input[p] and input[p + (dx, dy)]; off the photo the segment is cut short (a scratch
  // may run to the edge), so the pixel keeps its own value.
  const shift = (input: Float32Array, out: Float32Array, dx: number, dy: number, max: boolean) => {
    const x0 = Math.max(0, -dx);
    const x1 = Math.min(w, w - dx);
    for (let y = 0; y < h; y++) {
      const row = y * w;
      const yy = y + dy;
      if (yy < 0 || yy >= h || x0 >= x1) {
        out.set(input.subarray(row, row + w), row);
        continue;
      }
      const off = yy * w + dx;
      for (let x = 0; x < x0; x++) out[row + x] = input[row + x] as number;
      for (let x = x1; x < w; x++) out[row + x] = input[row + x] as number;
      if (max) {
        for (let x = x0; x < x1; x++) {
          const p = input[row + x] as number;
          const q = input[off + x] as number;
          out[row + x] = p > q ? p : q;
        }
      } else {
        for (let x = x0; x < x1; x++) {
          const p = input[row + x] as number;
          const q = input[off + x] as number;
          out[row + x] = p < q ? p : q;
        }
      }
    }
  };
  let cur = src;
  let next = a;
  const swap = () => {
    const done = next;
    next = done === a ? b : a;
    cur = done;
  };
  for (const [dx, dy] of steps) {
    shift(cur, next, dx, dy, false);
    swap();
  }
  for (const [dx, dy] of steps) {
    shift(cur, next, -dx, -dy, true);
    swap();
  }
  return cur;
}

/**
 * A scratch lies across one surface: the photo is about the same on its two sides. A highlight or shadow along an
 * object's edge (a rim, a fold, a stripe's border) has different things on each side. True when, at enough points
 * of the mark, the difference across it is under half the mark's typical contrast.
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
  const step = Math.max(1, Math.floor(pixels.length / 200));
  const own: number[] = [];
  for (let i = 0; i < pixels.length; i += step) own.push(contrast[pixels[i] as number] as number);
  own.sort((a, b) => a - b);
  const bar = 0.5 * (own[own.length >> 1] as number);
  let same = 0;
  let n = 0;
  for (let i = 0; i < pixels.length; i += step) {
    const p = pixels[i] as number;
    const px = p % w;
    const py = (p - px) / w;
    const ax = Math.round(px + nx);
    const ay = Math.round(py + ny);
    const bx = Math.round(px - nx);
    const by = Math.round(py - ny);
    if (ax < 0 || ay < 0 || bx < 0 || by < 0 || ax >= w || bx >= w || ay >= h || by >= h) continue;
    if (Math.abs((y[ay * w + ax] as number) - (y[by * w + bx] as number)) < bar) same++;
    n++;
  }
  return n === 0 || same >= SAME_SIDES * n;
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

/** Box sums of a 0/1 map over (2r+1)^2 windows, from an integral image. */
function boxCount(bits: Uint8Array, w: number, h: number, r: number): (x: number, y: number) => number {
  const sat = new Int32Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += bits[y * w + x] as number;
      sat[(y + 1) * (w + 1) + x + 1] = (sat[y * (w + 1) + x + 1] as number) + row;
    }
  }
  return (x, y) => {
    const x0 = Math.max(0, x - r);
    const y0 = Math.max(0, y - r);
    const x1 = Math.min(w, x + r + 1);
    const y1 = Math.min(h, y + r + 1);
    return (
      (sat[y1 * (w + 1) + x1] as number) -
      (sat[y0 * (w + 1) + x1] as number) -
      (sat[y1 * (w + 1) + x0] as number) +
      (sat[y0 * (w + 1) + x0] as number)
    );
  };
}

const ANGLES = 16;
/** Share of a scratch's points that must look alike on its two sides (a scratch may cross a few edges). */
const SAME_SIDES = 0.35;

/** Finds scratches and dust in a luminance plane (0–255). */
export function detectDefects(y: Float32Array, w: number, h: number, opts: DefectOptions = {}): DefectResult {
  const scale = Math.max(w, h) / REFERENCE;
  const sensitivity = Math.min(1, Math.max(0, opts.sensitivity ?? 0.5));
  // Marks narrower than this (in pixels) are candidates: scratches and dust up to ~10 px across at 1024.
  const k = Math.max(5, 2 * Math.round(5.5 * scale) + 1);
  const maxDust = k * k;
  // A scratch holds straight segments this long at some angle, runs at least minScratchLength in all and is thin.
  const segment = Math.max(16, Math.round(64 * scale));
  const minScratchLength = Math.max(24, 100 * scale);
  const maxScratchWidth = Math.max(5.5, 8 * scale);
  // How far beyond a scratch's edge its two sides are compared.
  const sideGap = Math.max(2, 3 * scale);
  // Dust must stand alone: little other fine structure within this radius (texture is not dust).
  const isolation = 2 * k;
  // Contrast needed to start a mark, in grey levels: 40 at sensitivity 0, 12 at 1 (or more, with noise).
  const baseHigh = 40 - 28 * sensitivity;
  const protectedMark = (c: Component) => opts.protect !== undefined && c.pixels.some((p) => opts.protect?.[p]);

  const mask = new Uint8Array(w * h);
  const bufA = new Float32Array(w * h);
  const bufB = new Float32Array(w * h);
  const line = new Float32Array(w * h);
  let scratches = 0;
  let dust = 0;
  for (const sign of [1, -1] as const) {
    const t = topHat(y, w, h, k, sign);
    // Noise and grain give every pixel some top-hat response: thresholds sit well above its typical spread.
    const { median, spread } = robustSpread(t);
    const high = Math.max(baseHigh, median + 5 * spread);
    const low = Math.max(baseHigh / 2, median + 2.5 * spread);
    // Scratches: marks that hold a straight segment at one angle, judged angle by angle so that texture running
    // other ways does not join them. Widened by a pixel first, so a thin, gently curved scratch still holds a
    // segment at the nearest sampled angle.
    const wide = rankFilter(t, w, h, 3, true);
    const onScratch = new Uint8Array(w * h);
    for (let a = 0; a < ANGLES; a++) {
      const angle = (a * Math.PI) / ANGLES;
      const o = lineOpen(wide, w, h, angle, segment, bufA, bufB);
      for (let i = 0; i < line.length; i++) line[i] = Math.min(o[i] as number, t[i] as number);
      for (const c of components(line, w, h, low, high)) {
        const { length, width } = shape(c.pixels, w);
        if (length < minScratchLength || width > maxScratchWidth || protectedMark(c)) continue;
        if (!sameOnBothSides(y, w, h, c.pixels, angle, width + sideGap, t)) continue;
        scratches++;
        for (const p of c.pixels) onScratch[p] = 1;
      }
    }

    // Dust: small compact marks with little other fine structure around them.
    const busy = new Uint8Array(w * h);
    for (let i = 0; i < busy.length; i++) busy[i] = (t[i] as number) >= high ? 1 : 0;
    const around = boxCount(busy, w, h, isolation);
    const window = (2 * isolation + 1) ** 2;
    for (const c of components(t, w, h, low, high)) {
      if (c.pixels.length > maxDust || c.peak < 1.5 * high) continue;
      if (protectedMark(c) || c.pixels.some((p) => onScratch[p])) continue;
      const { length } = shape(c.pixels, w);
      if (length > k * 1.5) continue;
      const centre = c.pixels[Math.floor(c.pixels.length / 2)] as number;
      let strong = 0;
      for (const p of c.pixels) strong += (t[p] as number) >= high ? 1 : 0;
      if ((around(centre % w, Math.floor(centre / w)) - strong) / window > 0.06) continue;
      dust++;
      for (const p of c.pixels) mask[p] = 255;
    }
    for (let i = 0; i < mask.length; i++) if (onScratch[i]) mask[i] = 255;
  }
  return { mask, scratches, dust };
}

/** Separable Gaussian blur of a float plane, clamped at the borders. */
function blurPlane(src: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const r = Math.max(1, Math.ceil(3 * sigma));
  const k = new Float32Array(2 * r + 1);
  let sum = 0;
  for (let i = -r; i <= r; i++) sum += k[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < k.length; i++) k[i] = (k[i] as number) / sum;
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      let acc = 0;
      for (let i = -r; i <= r; i++) {
        const xx = x + i < 0 ? 0 : x + i >= w ? w - 1 : x + i;
        acc += (k[i + r] as number) * (src[row + xx] as number);
      }
      tmp[row + x] = acc;
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let acc = 0;
      for (let i = -r; i <= r; i++) {
        const yy = y + i < 0 ? 0 : y + i >= h ? h - 1 : y + i;
        acc += (k[i + r] as number) * (tmp[yy * w + x] as number);
      }
      out[y * w + x] = acc;
    }
  }
  return out;
}

/**
 * Fills thin marks (scratches, dust) from the pixels around them by normalised convolution (Knutsson & Westin
 * 1993): a Gaussian-weighted mean of the unmarked neighbours, widening the Gaussian where a mark is too deep for the
 * narrow one to reach across. Marks a few pixels wide are bridged smoothly, without copying texture from elsewhere
 * that may not belong there. Pixels outside the mask are returned unchanged.
 */
export function fillThinMarks(
  data: Buffer,
  w: number,
  h: number,
  channels: number,
  mask: Uint8Array,
  onProgress?: (fraction: number) => void,
): Buffer {
  const out = Buffer.from(data);
  const known = new Float32Array(w * h);
  for (let i = 0; i < known.length; i++) known[i] = mask[i] ? 0 : 1;
  const done = new Uint8Array(w * h);
  for (let i = 0; i < done.length; i++) done[i] = mask[i] ? 0 : 1;
  const sigmas = [1, 3, 9];
  for (let s = 0; s < sigmas.length; s++) {
    const sigma = sigmas[s] as number;
    const weight = blurPlane(known, w, h, sigma);
    const last = s === sigmas.length - 1;
    for (let c = 0; c < channels; c++) {
      const plane = new Float32Array(w * h);
      for (let i = 0; i < plane.length; i++) plane[i] = (known[i] as number) * (data[i * channels + c] as number);
      const num = blurPlane(plane, w, h, sigma);
      for (let i = 0; i < plane.length; i++) {
        if (done[i]) continue;
        const wt = weight[i] as number;
        // Enough known pixels within reach at this scale (or the last scale: take what there is).
        if (wt >= 0.08 || (last && wt > 0)) out[i * channels + c] = Math.round((num[i] as number) / wt);
      }
    }
    for (let i = 0; i < done.length; i++) if (!done[i] && ((weight[i] as number) >= 0.08 || last)) done[i] = 1;
    onProgress?.((s + 1) / sigmas.length);
  }
  return out;
}
