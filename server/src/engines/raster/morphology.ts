/**
 * Morphology on raster planes, in one place: the binary dilation every engine grows its masks with, and the
 * greyscale rank filters (erosion, dilation, top-hat, line openings) and connected components that find marks.
 */
import type { RawImage } from './image.js';

/**
 * Grows a 0/1 (or 0/255: any nonzero pixel is set) map by `radius` pixels and returns a 0/1 map. `square` (the
 * default) grows by a square, in O(pixels) whatever the radius; `round` by a disc, for selections whose corners
 * should stay round.
 */
export function dilate(
  src: Uint8Array,
  w: number,
  h: number,
  radius: number,
  shape: 'square' | 'round' = 'square',
): Uint8Array {
  return shape === 'round' ? dilateRound(src, w, h, radius) : dilateSquare(src, w, h, radius);
}

/**
 * Grows a 0/1 (or 0/255) map by a square of the given radius: a separable running max, O(pixels) whatever the
 * radius. (sharp's own morphology treats dark pixels as the foreground and returns three channels.)
 */
function dilateSquare(src: Uint8Array, w: number, h: number, radius: number): Uint8Array {
  const tmp = new Uint8Array(w * h);
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let last = Number.NEGATIVE_INFINITY;
    for (let x = 0; x < w; x++) {
      if (src[row + x]) last = x;
      if (x - last <= radius) tmp[row + x] = 1;
    }
    last = Number.POSITIVE_INFINITY;
    for (let x = w - 1; x >= 0; x--) {
      if (src[row + x]) last = x;
      if (last - x <= radius) tmp[row + x] = 1;
    }
  }
  for (let x = 0; x < w; x++) {
    let last = Number.NEGATIVE_INFINITY;
    for (let y = 0; y < h; y++) {
      if (tmp[y * w + x]) last = y;
      if (y - last <= radius) out[y * w + x] = 1;
    }
    last = Number.POSITIVE_INFINITY;
    for (let y = h - 1; y >= 0; y--) {
      if (tmp[y * w + x]) last = y;
      if (last - y <= radius) out[y * w + x] = 1;
    }
  }
  return out;
}

/** A one-channel mask (255 = set) grown by `radius` pixels. */
export function dilateMask(mask: RawImage, radius: number): RawImage {
  if (radius <= 0) return mask;
  const grown = dilate(mask.data, mask.width, mask.height, radius);
  return { ...mask, data: Buffer.from(grown.map((v) => v * 255)) };
}

/**
 * Grows a 0/1 (or 0/255) map by `radius` pixels with a round brush: every pixel within that distance of the map.
 * Each row's runs of set pixels, widened by the disc's half-width at each row offset, are summed into a coverage
 * row: O(pixels + runs x (2 x radius + 1)). On a 1920x1280 selection 25 ms, where a chamfer distance map took 83-88 ms.
 */
function dilateRound(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const r = Math.floor(radius);
  const reach = Int32Array.from({ length: r + 1 }, (_, dy) => Math.floor(Math.sqrt(radius * radius - dy * dy)));
  const x0: number[] = [];
  const x1: number[] = [];
  const rowRuns = new Int32Array(height + 1);
  for (let y = 0; y < height; y++) {
    rowRuns[y] = x0.length;
    for (let x = 0, i = y * width; x < width; ) {
      if (!mask[i + x]) {
        x++;
        continue;
      }
      x0.push(x);
      while (x < width && mask[i + x]) x++;
      x1.push(x);
    }
  }
  rowRuns[height] = x0.length;
  const out = new Uint8Array(width * height);
  // +1 where a widened run starts, -1 where it ends: a pixel is set where the running sum is positive.
  const cover = new Int32Array(width + 1);
  for (let y = 0; y < height; y++) {
    let any = false;
    for (let yy = Math.max(0, y - r); yy <= Math.min(height - 1, y + r); yy++) {
      const k = reach[Math.abs(yy - y)] as number;
      for (let i = rowRuns[yy] as number; i < (rowRuns[yy + 1] as number); i++) {
        const from = Math.max(0, (x0[i] as number) - k);
        const to = Math.min(width, (x1[i] as number) + k);
        cover[from] = (cover[from] as number) + 1;
        cover[to] = (cover[to] as number) - 1;
        any = true;
      }
    }
    if (!any) continue;
    let sum = 0;
    for (let x = 0, row = y * width; x < width; x++) {
      sum += cover[x] as number;
      cover[x] = 0;
      if (sum > 0) out[row + x] = 1;
    }
    cover[width] = 0;
  }
  return out;
}

/**
 * Each pixel's distance to the nearest set pixel of a 0/1 (or 0/255) map: a two-pass chamfer distance (steps 1 and
 * √2 approximate the Euclidean distance within 8 %). A map with no set pixel gives 1e9 everywhere.
 */
export function distanceTo(mask: Uint8Array, width: number, height: number): Float32Array {
  const INF = 1e9;
  const d = new Float32Array(width * height);
  for (let i = 0; i < d.length; i++) d[i] = mask[i] ? 0 : INF;
  const D = Math.SQRT2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      let v = d[i] as number;
      if (x > 0) v = Math.min(v, (d[i - 1] as number) + 1);
      if (y > 0) {
        v = Math.min(v, (d[i - width] as number) + 1);
        if (x > 0) v = Math.min(v, (d[i - width - 1] as number) + D);
        if (x < width - 1) v = Math.min(v, (d[i - width + 1] as number) + D);
      }
      d[i] = v;
    }
  }
  for (let y = height - 1; y >= 0; y--) {
    for (let x = width - 1; x >= 0; x--) {
      const i = y * width + x;
      let v = d[i] as number;
      if (x < width - 1) v = Math.min(v, (d[i + 1] as number) + 1);
      if (y < height - 1) {
        v = Math.min(v, (d[i + width] as number) + 1);
        if (x < width - 1) v = Math.min(v, (d[i + width + 1] as number) + D);
        if (x > 0) v = Math.min(v, (d[i + width - 1] as number) + D);
      }
      d[i] = v;
    }
  }
  return d;
}

/** One van Herk pass along `count` lines of `len` samples (stride between lines, step within one). */
function rankPass(
  input: Float32Array,
  out: Float32Array,
  len: number,
  count: number,
  stride: number,
  step: number,
  k: number,
  max: boolean,
  g: Float32Array,
  hh: Float32Array,
): void {
  const r = k >> 1;
  const n = len + k - 1;
  const pad = max ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  for (let line = 0; line < count; line++) {
    const base = line * stride;
    // g: running extreme from each block's start; hh: from each block's end (blocks of k padded samples).
    for (let i = 0; i < n; i++) {
      const v = i < r || i >= len + r ? pad : (input[base + (i - r) * step] as number);
      const prev = g[i - 1] as number;
      g[i] = i % k === 0 ? v : max ? (prev > v ? prev : v) : prev < v ? prev : v;
    }
    for (let i = n - 1; i >= 0; i--) {
      const v = i < r || i >= len + r ? pad : (input[base + (i - r) * step] as number);
      const prev = hh[i + 1] as number;
      hh[i] = i === n - 1 || (i + 1) % k === 0 ? v : max ? (prev > v ? prev : v) : prev < v ? prev : v;
    }
    for (let i = 0; i < len; i++) {
      const a = hh[i] as number;
      const b = g[i + k - 1] as number;
      out[base + i * step] = max ? (a > b ? a : b) : a < b ? a : b;
    }
  }
}

/** Greyscale erosion (min) or dilation (max) with a k x k square, separably, in O(1) per pixel (van Herk). */
export function rankFilter(src: Float32Array, w: number, h: number, k: number, max: boolean): Float32Array {
  const g = new Float32Array(Math.max(w, h) + k);
  const hh = new Float32Array(Math.max(w, h) + k);
  const rows = new Float32Array(src.length);
  rankPass(src, rows, w, h, w, 1, k, max, g, hh);
  const out = new Float32Array(src.length);
  rankPass(rows, out, h, w, 1, w, k, max, g, hh);
  return out;
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

export interface Component {
  pixels: number[];
  peak: number;
}

/** 8-connected components of pixels >= low that contain at least one pixel >= high (hysteresis). */
export function components(t: Float32Array | Uint8Array, w: number, h: number, low: number, high: number): Component[] {
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

/**
 * A mask's 8-connected pieces as runs along its rows: run r covers row `y[r]`, columns `x0[r]` up to `x1[r]`
 * (exclusive), and belongs to piece `piece[r]`, of `sizes[piece[r]]` pixels. On a photo-sized mask this is far
 * cheaper than `components`, which lists every pixel.
 */
export function pieceRuns(
  mask: Uint8Array,
  w: number,
  h: number,
): { y: Int32Array; x0: Int32Array; x1: Int32Array; piece: Int32Array; sizes: number[] } {
  const ys: number[] = [];
  const x0s: number[] = [];
  const x1s: number[] = [];
  const parent: number[] = [];
  const root = (a: number): number => {
    let r = a;
    while (parent[r] !== r) r = parent[r] as number;
    while (parent[a] !== r) [parent[a], a] = [r, parent[a] as number];
    return r;
  };
  // The previous row's runs not yet passed: a run meets the runs above it that reach from x0 - 1 to x1.
  let above = 0;
  let aboveEnd = 0;
  for (let y = 0; y < h; y++) {
    const rowStart = ys.length;
    for (let x = 0, i = y * w; x < w; ) {
      if (!mask[i + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < w && mask[i + x]) x++;
      const r = ys.length;
      ys.push(y);
      x0s.push(start);
      x1s.push(x);
      parent.push(r);
      while (above < aboveEnd && (x1s[above] as number) < start) above++;
      for (let q = above; q < aboveEnd && (x0s[q] as number) <= x; q++) parent[root(q)] = root(r);
    }
    above = rowStart;
    aboveEnd = ys.length;
  }
  const ids = new Map<number, number>();
  const sizes: number[] = [];
  const piece = new Int32Array(ys.length);
  for (let r = 0; r < ys.length; r++) {
    const k = root(r);
    let id = ids.get(k);
    if (id === undefined) {
      id = sizes.length;
      ids.set(k, id);
      sizes.push(0);
    }
    piece[r] = id;
    sizes[id] = (sizes[id] as number) + (x1s[r] as number) - (x0s[r] as number);
  }
  return { y: Int32Array.from(ys), x0: Int32Array.from(x0s), x1: Int32Array.from(x1s), piece, sizes };
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
 * out[p] = min (or max) of input[p] and input[p + (dx, dy)]. Off the photo the segment is cut short (a scratch may
 * run to the edge), so such pixels keep their own value.
 */
function shiftExtreme<T extends Float32Array | Uint8Array>(
  input: T,
  out: T,
  w: number,
  h: number,
  dx: number,
  dy: number,
  max: boolean,
): void {
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
    if (input instanceof Uint8Array) {
      // Bit-coded levels (see detectDefects): OR is the maximum, AND the minimum.
      if (max) for (let x = x0; x < x1; x++) out[row + x] = (input[row + x] as number) | (input[off + x] as number);
      else for (let x = x0; x < x1; x++) out[row + x] = (input[row + x] as number) & (input[off + x] as number);
    } else if (max) {
      for (let x = x0; x < x1; x++) out[row + x] = Math.max(input[row + x] as number, input[off + x] as number);
    } else {
      for (let x = x0; x < x1; x++) out[row + x] = Math.min(input[row + x] as number, input[off + x] as number);
    }
  }
}

/**
 * Opening of `src` by a straight segment of about `length` px at `angle`: keeps what holds such a segment. The
 * segment is built by doubling (offsets 1, 2, 4, ...), so each pass costs one comparison per pixel. `a` and `b`
 * are scratch buffers of the same size; the result is in one of them.
 */
export function lineOpen<T extends Float32Array | Uint8Array>(
  src: T,
  w: number,
  h: number,
  angle: number,
  length: number,
  a: T,
  b: T,
): T {
  const steps: [number, number][] = [];
  for (let step = 1; step < length; step *= 2)
    steps.push([Math.round(step * Math.cos(angle)), Math.round(step * Math.sin(angle))]);
  // Erosion along the segment, then dilation back along it.
  const passes = [
    ...steps.map(([dx, dy]) => [dx, dy, false] as const),
    ...steps.map(([dx, dy]) => [-dx, -dy, true] as const),
  ];
  let cur: T = src;
  let next: T = a;
  for (const [dx, dy, max] of passes) {
    shiftExtreme(cur, next, w, h, dx, dy, max);
    cur = next;
    next = cur === a ? b : a;
  }
  return cur;
}
