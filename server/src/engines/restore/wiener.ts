/**
 * Empirical Wiener filtering in a sliding 8x8 DCT, the second step of BM3D without its block matching: a first
 * denoised estimate (the pilot) tells, coefficient by coefficient, how much of the noisy photo is signal. Each
 * coefficient of the noisy block is kept in the share P^2 / (P^2 + sigma^2), P being the pilot's: the fine detail a
 * smoothing filter attenuates (fur, foliage) comes back from the noisy photo itself wherever the pilot still shows a
 * trace of it, and noise-only coefficients stay out. Blocks overlap (every STEP pixels) and are averaged with BM3D's
 * weights, 1 / (sigma^2 * sum of the shares^2), which favour the blocks that kept least noise.
 */

const B = 8;
export const WIENER_BLOCK = B;
/** Block spacing: within 0.13 dB of every pixel's block (1 px) on the tuning photos (bench:quality), a ninth of the work. */
const STEP = 3;
export const WIENER_STEP = STEP;

/** The orthonormal DCT-II matrix, row k = frequency k. */
const DCT = (() => {
  const m = new Float64Array(B * B);
  for (let k = 0; k < B; k++) {
    const a = k === 0 ? Math.sqrt(1 / B) : Math.sqrt(2 / B);
    for (let n = 0; n < B; n++) m[k * B + n] = a * Math.cos(((2 * n + 1) * k * Math.PI) / (2 * B));
  }
  return m;
})();

/** out = DCT * src * DCT^T (forward) or DCT^T * src * DCT (inverse), for one 8x8 block. */
function transform(src: Float64Array, out: Float64Array, tmp: Float64Array, inverse: boolean): void {
  for (let i = 0; i < B; i++) {
    for (let j = 0; j < B; j++) {
      let s = 0;
      for (let k = 0; k < B; k++) {
        s += (inverse ? (DCT[k * B + i] as number) : (DCT[i * B + k] as number)) * (src[k * B + j] as number);
      }
      tmp[i * B + j] = s;
    }
  }
  for (let i = 0; i < B; i++) {
    for (let j = 0; j < B; j++) {
      let s = 0;
      for (let k = 0; k < B; k++) {
        s += (tmp[i * B + k] as number) * (inverse ? (DCT[k * B + j] as number) : (DCT[j * B + k] as number));
      }
      out[i * B + j] = s;
    }
  }
}

/** Block origins along one axis: every STEP pixels from 0 (a grid strips share), and the last flush with the edge. */
function origins(size: number): number[] {
  const out: number[] = [];
  for (let p = 0; p + B <= size; p += STEP) out.push(p);
  if (out[out.length - 1] !== size - B) out.push(size - B);
  return out;
}

/** The Wiener estimate of a noisy plane (noise sigma) from a pilot estimate of it; planes under 8 px keep the pilot. */
export function dctWiener(noisy: Float32Array, pilot: Float32Array, w: number, h: number, sigma: number): Float32Array {
  if (w < B || h < B || sigma <= 0) return pilot;
  const acc = new Float32Array(w * h);
  const norm = new Float32Array(w * h);
  const nb = new Float64Array(B * B);
  const pb = new Float64Array(B * B);
  const nc = new Float64Array(B * B);
  const pc = new Float64Array(B * B);
  const tmp = new Float64Array(B * B);
  const s2 = sigma * sigma;
  const xs = origins(w);
  for (const y0 of origins(h)) {
    for (const x0 of xs) {
      for (let r = 0; r < B; r++) {
        for (let c = 0; c < B; c++) {
          nb[r * B + c] = noisy[(y0 + r) * w + x0 + c] as number;
          pb[r * B + c] = pilot[(y0 + r) * w + x0 + c] as number;
        }
      }
      transform(nb, nc, tmp, false);
      transform(pb, pc, tmp, false);
      let energy = 0;
      for (let k = 0; k < B * B; k++) {
        const p2 = (pc[k] as number) ** 2;
        const share = p2 / (p2 + s2);
        nc[k] = (nc[k] as number) * share;
        energy += share * share;
      }
      transform(nc, nb, tmp, true);
      const weight = 1 / (s2 * Math.max(energy, 1e-6));
      for (let r = 0; r < B; r++) {
        for (let c = 0; c < B; c++) {
          const i = (y0 + r) * w + x0 + c;
          acc[i] = (acc[i] as number) + weight * (nb[r * B + c] as number);
          norm[i] = (norm[i] as number) + weight;
        }
      }
    }
  }
  const out = new Float32Array(w * h);
  for (let i = 0; i < out.length; i++) out[i] = (acc[i] as number) / (norm[i] as number);
  return out;
}
