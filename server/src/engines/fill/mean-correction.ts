/**
 * The coarse shading of a patch fill pulled toward the membrane (the smooth fill from the hole's border), with the
 * fill's own detail kept. A patch fill carries real grain but places its broad light and dark wherever its sources
 * had them: a darker stretch of table, a rim's shadow, a notch of the neighbour. PSNR (and the eye, at a distance)
 * rewards the right mean more than the right grain, and the membrane is that mean where nothing crosses the hole;
 * the fill's detail (what a box blur of radius `radius` removes) is left as it is, so the texture stays.
 */
import { membrane } from './poisson-blend.js';

/**
 * In place on `region` (1 = corrected; `nc` floats per pixel, colour first): fill + (1 - keep) * (membrane -
 * blur(fill)), the blur a box of radius `radius` over the fill and the known pixels around it.
 */
export function correctMean(
  img: Float32Array,
  nc: number,
  w: number,
  h: number,
  region: Uint8Array,
  keep: number,
  radius: number,
  free?: Uint8Array,
): void {
  if (keep >= 1 || !region.includes(1)) return;
  const smooth = membrane(img, nc, w, h, region, free);
  const low = boxBlur(img, nc, w, h, region, radius);
  for (let p = 0; p < region.length; p++) {
    if (!region[p]) continue;
    for (let c = 0; c < 3; c++) {
      const j = p * nc + c;
      img[j] = (img[j] as number) + (1 - keep) * ((smooth[j] as number) - (low[j] as number));
    }
  }
}

/** The colour (first three channels) box-blurred with radius `rad`, computed on the region's bounding box. */
function boxBlur(img: Float32Array, nc: number, w: number, h: number, region: Uint8Array, rad: number): Float32Array {
  let x0 = w;
  let x1 = -1;
  let y0 = h;
  let y1 = -1;
  for (let q = 0; q < region.length; q++) {
    if (!region[q]) continue;
    const x = q % w;
    const y = (q - x) / w;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  const out = img.slice();
  // Rows first, over the rows the column pass reads; then columns, on the region only.
  const rows = img.slice();
  for (let y = Math.max(0, y0 - rad); y <= Math.min(h - 1, y1 + rad); y++) {
    for (let c = 0; c < 3; c++) {
      const xa = Math.max(0, x0 - rad);
      const xb = Math.min(w - 1, x1 + rad);
      for (let x = x0; x <= x1; x++) {
        let s = 0;
        const a = Math.max(xa, x - rad);
        const b = Math.min(xb, x + rad);
        for (let xx = a; xx <= b; xx++) s += img[(y * w + xx) * nc + c] as number;
        rows[(y * w + x) * nc + c] = s / (b - a + 1);
      }
    }
  }
  for (let y = y0; y <= y1; y++) {
    const a = Math.max(0, y - rad);
    const b = Math.min(h - 1, y + rad);
    for (let x = x0; x <= x1; x++) {
      if (!region[y * w + x]) continue;
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let yy = a; yy <= b; yy++) s += rows[(yy * w + x) * nc + c] as number;
        out[(y * w + x) * nc + c] = s / (b - a + 1);
      }
    }
  }
  return out;
}
