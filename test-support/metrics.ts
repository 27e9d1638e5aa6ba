/** Image quality measures shared by the engine tests. All work on 8-bit interleaved pixels. */
import type { RawImage } from '../server/src/engines/raster/image.js';
import { seededRandom } from '../server/src/engines/raster/random.js';

/** Rec. 601 luma, one float per pixel (a single-channel image is returned as floats). */
export function luma(img: RawImage): Float32Array {
  const n = img.width * img.height;
  const out = new Float32Array(n);
  const c = img.channels;
  for (let i = 0; i < n; i++) {
    const o = i * c;
    out[i] =
      c >= 3
        ? 0.299 * (img.data[o] as number) + 0.587 * (img.data[o + 1] as number) + 0.114 * (img.data[o + 2] as number)
        : (img.data[o] as number);
  }
  return out;
}

/** Mean squared error over every sample (optionally only where `where[i]` is set, per pixel). */
export function mse(a: ArrayLike<number>, b: ArrayLike<number>, channels = 1, where?: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`mse: lengths differ (${a.length} vs ${b.length})`);
  let sum = 0;
  let count = 0;
  for (let i = 0; i < a.length; i++) {
    if (where && !where[Math.floor(i / channels)]) continue;
    const d = (a[i] as number) - (b[i] as number);
    sum += d * d;
    count++;
  }
  return count ? sum / count : 0;
}

/** Peak signal-to-noise ratio in dB for 8-bit data. */
export function psnr(a: ArrayLike<number>, b: ArrayLike<number>, channels = 1, where?: ArrayLike<number>): number {
  const m = mse(a, b, channels, where);
  return m === 0 ? Number.POSITIVE_INFINITY : 10 * Math.log10((255 * 255) / m);
}

/** Separable Gaussian blur of a float plane (clamped borders). */
export function gaussianBlur(src: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const r = Math.max(1, Math.ceil(3 * sigma));
  const k = new Float32Array(2 * r + 1);
  let ks = 0;
  for (let i = -r; i <= r; i++) ks += k[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < k.length; i++) k[i] = (k[i] as number) / ks;
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let i = -r; i <= r; i++)
        s += (k[i + r] as number) * (src[y * w + Math.min(w - 1, Math.max(0, x + i))] as number);
      tmp[y * w + x] = s;
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let i = -r; i <= r; i++)
        s += (k[i + r] as number) * (tmp[Math.min(h - 1, Math.max(0, y + i)) * w + x] as number);
      out[y * w + x] = s;
    }
  }
  return out;
}

/** Mean SSIM (Wang et al. 2004: Gaussian window sigma 1.5, K1 0.01, K2 0.03) of two luma planes. */
export function ssim(a: Float32Array, b: Float32Array, w: number, h: number): number {
  const n = w * h;
  const aa = new Float32Array(n);
  const bb = new Float32Array(n);
  const ab = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    aa[i] = (a[i] as number) * (a[i] as number);
    bb[i] = (b[i] as number) * (b[i] as number);
    ab[i] = (a[i] as number) * (b[i] as number);
  }
  const [ma, mb, saa, sbb, sab] = [a, b, aa, bb, ab].map((p) => gaussianBlur(p, w, h, 1.5)) as Float32Array[];
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const mx = ma?.[i] as number;
    const my = mb?.[i] as number;
    const vx = (saa?.[i] as number) - mx * mx;
    const vy = (sbb?.[i] as number) - my * my;
    const cxy = (sab?.[i] as number) - mx * my;
    sum += ((2 * mx * my + c1) * (2 * cxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2));
  }
  return sum / n;
}

/** Sobel gradient magnitude per pixel (zero on the border). */
export function gradientMagnitude(plane: Float32Array, w: number, h: number): Float32Array {
  const out = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const p = (dx: number, dy: number) => plane[i + dy * w + dx] as number;
      const gx = p(1, -1) + 2 * p(1, 0) + p(1, 1) - p(-1, -1) - 2 * p(-1, 0) - p(-1, 1);
      const gy = p(-1, 1) + 2 * p(0, 1) + p(1, 1) - p(-1, -1) - 2 * p(0, -1) - p(1, -1);
      out[i] = Math.hypot(gx, gy);
    }
  }
  return out;
}

/** Mean Sobel gradient magnitude of an image's luma: a sharpness measure. */
export function meanGradient(img: RawImage): number {
  const g = gradientMagnitude(luma(img), img.width, img.height);
  let s = 0;
  for (const v of g) s += v;
  return s / g.length;
}

/** Adds white Gaussian noise of the given sigma to every sample, clamped to 0-255. */
export function addGaussianNoise(img: RawImage, sigma: number, seed: number): RawImage {
  const rnd = seededRandom(seed);
  const data = Buffer.alloc(img.data.length);
  for (let i = 0; i < data.length; i++) {
    const u = rnd() || Number.MIN_VALUE;
    const g = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
    data[i] = Math.max(0, Math.min(255, Math.round((img.data[i] as number) + sigma * g)));
  }
  return { ...img, data };
}
