/** Gaussian blur of float planes, for the fills' own image arithmetic (sharp's blur works on 8-bit images). */

/** A normalised Gaussian kernel of `sigma` pixels, 3 sigma each side. */
export function gaussianKernel(sigma: number): Float32Array {
  const r = Math.ceil(3 * sigma);
  const k = Float32Array.from({ length: 2 * r + 1 }, (_, i) => Math.exp(-((i - r) ** 2) / (2 * sigma * sigma)));
  const sum = k.reduce((a, b) => a + b, 0);
  return k.map((v) => v / sum);
}

/** Separable blur of interleaved float pixels, the border pixel repeated past the edges. */
export function blur(data: Float32Array, w: number, h: number, c: number, kernel: Float32Array): Float32Array {
  const r = (kernel.length - 1) / 2;
  const pass = (src: Float32Array, step: (x: number, y: number, d: number) => number) => {
    const out = new Float32Array(src.length);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        for (let k = 0; k < c; k++) {
          let s = 0;
          for (let d = -r; d <= r; d++) s += (kernel[d + r] as number) * (src[step(x, y, d) * c + k] as number);
          out[(y * w + x) * c + k] = s;
        }
      }
    }
    return out;
  };
  const across = pass(data, (x, y, d) => y * w + Math.min(w - 1, Math.max(0, x + d)));
  return pass(across, (x, y, d) => Math.min(h - 1, Math.max(0, y + d)) * w + x);
}
