/**
 * The guided filter (He, Sun & Tang 2010), self-guided: an edge-preserving smoother in O(pixels) whatever the
 * radius, built from box means. Strong edges (local variance well above eps) survive; finer variation is averaged.
 */

/** Box mean over a (2r+1)^2 window, clamped at the borders (running sums, two passes). */
export function boxMean(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let s = 0;
    let n = 0;
    for (let x = 0; x <= Math.min(r, w - 1); x++) {
      s += src[row + x] as number;
      n++;
    }
    for (let x = 0; x < w; x++) {
      tmp[row + x] = s / n;
      const add = x + r + 1;
      const drop = x - r;
      if (add < w) {
        s += src[row + add] as number;
        n++;
      }
      if (drop >= 0) {
        s -= src[row + drop] as number;
        n--;
      }
    }
  }
  for (let x = 0; x < w; x++) {
    let s = 0;
    let n = 0;
    for (let y = 0; y <= Math.min(r, h - 1); y++) {
      s += tmp[y * w + x] as number;
      n++;
    }
    for (let y = 0; y < h; y++) {
      out[y * w + x] = s / n;
      const add = y + r + 1;
      const drop = y - r;
      if (add < h) {
        s += tmp[add * w + x] as number;
        n++;
      }
      if (drop >= 0) {
        s -= tmp[drop * w + x] as number;
        n--;
      }
    }
  }
  return out;
}

/** Smooths `p` guided by itself: radius r (pixels), eps in the squared units of p. */
export function guidedFilter(p: Float32Array, w: number, h: number, r: number, eps: number): Float32Array {
  const n = w * h;
  const pp = new Float32Array(n);
  for (let i = 0; i < n; i++) pp[i] = (p[i] as number) * (p[i] as number);
  const mean = boxMean(p, w, h, r);
  const meanSq = boxMean(pp, w, h, r);
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const m = mean[i] as number;
    const v = Math.max(0, (meanSq[i] as number) - m * m);
    const ai = v / (v + eps);
    a[i] = ai;
    b[i] = m - ai * m;
  }
  const ma = boxMean(a, w, h, r);
  const mb = boxMean(b, w, h, r);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (ma[i] as number) * (p[i] as number) + (mb[i] as number);
  return out;
}
