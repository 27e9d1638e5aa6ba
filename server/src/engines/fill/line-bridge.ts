import { blur, gaussianKernel } from '../raster/blur.js';
import { cropRaw, maskBox, padBox } from '../raster/geometry.js';
import { lumaAt, lumaPlane, type RawImage } from '../raster/image.js';
import { components, dilate } from '../raster/morphology.js';

/**
 * Straight lines and edges that cross a small hole (a rail, a stem, a beak, a plank's seam, a horizon) are drawn
 * through it. Each fill loses them in its own way (the patch fill breaks them, the network fades them) and the fills'
 * mean keeps a ghost or a notch. Here the ends of thin bright or dark lines are found on the ring outside the hole (the
 * Hessian of the blurred luma: strong curvature across, little along; a step edge shows as one on each side), two ends
 * that face each other along the segment joining them are paired, and the cross-section taken at both ends is drawn
 * along the segment, changing from one end's to the other's. A line of a third end that would cross the segment inside
 * the hole makes it a junction (the apex of a V, a crossing), where no straight line is the truth, so nothing is drawn
 * there (docs/fill.md, "Lines and edges drawn through the hole").
 */

/** The Hessian's blur (px): lines 1-4 px wide. */
const SIGMA = 1.5;
/** Ring pixels this far from the hole (px) are read: far enough for the blur to see little of the hole. */
const RING = { from: 3, to: 7 };
/** A line pixel's curvature across (8-bit luma per px^2), and its curvature along the line at most this share of it. */
const MIN_CURVATURE = 3;
const MAX_ALONG = 0.5;
/** An end reaches at least this far (px) out from the ring's inner edge. */
const MIN_REACH = 3;
/** Two ends pair when the segment between them runs within this angle (degrees) of each end's line ... */
const MAX_ANGLE = 8;
/** ... and the colours at the two ends are this close (RGB distance). */
const MAX_COLOUR = 60;
/** The cross-section is taken this far (px) each side of the line's centre; the line fades out over FADE px. */
const HALF_SECTION = 5;
const FADE = 1.5;
/** The widest half width (px) a drawn line takes. */
const MAX_HALF_WIDTH = 3.5;

interface LineEnd {
  x: number;
  y: number;
  /** Unit vector along the line. */
  dx: number;
  dy: number;
  /** 1 for a bright line, -1 for a dark one. */
  sign: number;
}

/** Chessboard distance from the hole, up to RING.to (RING.to + 1 beyond). */
function distanceFrom(hole: Uint8Array, w: number, h: number): Uint8Array {
  const dist = new Uint8Array(w * h).fill(RING.to + 1);
  for (let d = RING.to; d >= 0; d--) {
    const grown = d > 0 ? dilate(hole, w, h, d) : hole;
    for (let p = 0; p < w * h; p++) if (grown[p]) dist[p] = d;
  }
  return dist;
}

/**
 * The line ends on the ring: connected line pixels of one sign that reach the ring's inner edge and run MIN_REACH
 * out, with their curvature-weighted centre next to the hole and their mean direction.
 */
function lineEnds(plane: Float32Array, dist: Uint8Array, w: number, h: number): LineEnd[] {
  const g = blur(plane, w, h, 1, gaussianKernel(SIGMA));
  const n = w * h;
  const sign = new Int8Array(n);
  const strength = new Float32Array(n);
  const along = new Float32Array(2 * n);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const p = y * w + x;
      const d = dist[p] as number;
      if (d < RING.from || d > RING.to) continue;
      const at = (q: number) => g[q] as number;
      const xx = at(p - 1) + at(p + 1) - 2 * at(p);
      const yy = at(p - w) + at(p + w) - 2 * at(p);
      const xy = (at(p + w + 1) - at(p + w - 1) - at(p - w + 1) + at(p - w - 1)) / 4;
      const mid = (xx + yy) / 2;
      const rad = Math.hypot((xx - yy) / 2, xy);
      // The curvature of larger magnitude runs across a line; the other's eigenvector runs along it.
      const [across, alongLine] =
        Math.abs(mid + rad) > Math.abs(mid - rad) ? [mid + rad, mid - rad] : [mid - rad, mid + rad];
      if (Math.abs(across) < MIN_CURVATURE || Math.abs(alongLine) > MAX_ALONG * Math.abs(across)) continue;
      sign[p] = across < 0 ? 1 : -1;
      strength[p] = Math.abs(across);
      let [vx, vy] = [xy, alongLine - xx];
      if (Math.hypot(vx, vy) < 1e-6) [vx, vy] = Math.abs(xx - alongLine) < Math.abs(yy - alongLine) ? [1, 0] : [0, 1];
      const len = Math.hypot(vx, vy);
      along[2 * p] = vx / len;
      along[2 * p + 1] = vy / len;
    }
  }
  const ends: LineEnd[] = [];
  for (const s of [1, -1]) {
    const ofSign = new Uint8Array(sign.map((v) => (v === s ? 1 : 0)));
    for (const { pixels } of components(ofSign, w, h, 1, 1)) {
      if (pixels.length < 4 || !pixels.some((p) => dist[p] === RING.from)) continue;
      if (Math.max(...pixels.map((p) => dist[p] as number)) - RING.from < MIN_REACH) continue;
      let [sx, sy, sw, c2, s2] = [0, 0, 0, 0, 0];
      for (const p of pixels) {
        const wt = strength[p] as number;
        const [ax, ay] = [along[2 * p] as number, along[2 * p + 1] as number];
        // Doubled angles: a line's direction has no sign.
        c2 += wt * (ax * ax - ay * ay);
        s2 += wt * 2 * ax * ay;
        if ((dist[p] as number) <= RING.from + 1) {
          sx += wt * (p % w);
          sy += wt * Math.floor(p / w);
          sw += wt;
        }
      }
      const angle = Math.atan2(s2, c2) / 2;
      ends.push({ x: sx / sw, y: sy / sw, dx: Math.cos(angle), dy: Math.sin(angle), sign: s });
    }
  }
  return ends;
}

/** Whether the line of end `e`, carried on into the hole, crosses the segment a-b away from its ends. */
function crosses(e: LineEnd, a: LineEnd, b: LineEnd): boolean {
  const sx = b.x - a.x;
  const sy = b.y - a.y;
  const den = e.dx * sy - e.dy * sx;
  if (Math.abs(den) < 1e-6) return false;
  // e + u d = a + t (b - a)
  const qx = a.x - e.x;
  const qy = a.y - e.y;
  const u = (qx * sy - qy * sx) / den;
  const t = (qx * e.dy - qy * e.dx) / den;
  return t > 0.15 && t < 0.85 && Math.abs(u) < Math.hypot(sx, sy);
}

/** Bilinear sample of channel k, clamped to the image. */
function sample(img: RawImage, x: number, y: number, k: number): number {
  const { width: w, height: h, channels: c } = img;
  const cx = Math.min(w - 1.001, Math.max(0, x));
  const cy = Math.min(h - 1.001, Math.max(0, y));
  const [x0, y0] = [Math.floor(cx), Math.floor(cy)];
  const [fx, fy] = [cx - x0, cy - y0];
  const at = (xx: number, yy: number) => img.data[(yy * w + xx) * c + k] as number;
  return (
    (1 - fy) * ((1 - fx) * at(x0, y0) + fx * at(x0 + 1, y0)) +
    fy * ((1 - fx) * at(x0, y0 + 1) + fx * at(x0 + 1, y0 + 1))
  );
}

/** The pairs of ends that face each other across the hole, best aligned first, each end in one pair at most. */
function pairEnds(ends: LineEnd[], img: RawImage, hole: Uint8Array): [LineEnd, LineEnd][] {
  const cos = Math.cos((MAX_ANGLE * Math.PI) / 180);
  const candidates: { a: LineEnd; b: LineEnd; cost: number }[] = [];
  for (const [i, a] of ends.entries()) {
    for (const b of ends.slice(i + 1)) {
      if (a.sign !== b.sign) continue;
      const [vx, vy] = [b.x - a.x, b.y - a.y];
      const len = Math.hypot(vx, vy);
      if (len < 2 * RING.from) continue;
      const ca = Math.abs((vx * a.dx + vy * a.dy) / len);
      const cb = Math.abs((vx * b.dx + vy * b.dy) / len);
      if (ca < cos || cb < cos) continue;
      if (!hole[Math.round((a.y + b.y) / 2) * img.width + Math.round((a.x + b.x) / 2)]) continue;
      let colour = 0;
      for (let k = 0; k < img.channels; k++) colour += (sample(img, a.x, a.y, k) - sample(img, b.x, b.y, k)) ** 2;
      if (Math.sqrt(colour) > MAX_COLOUR) continue;
      candidates.push({ a, b, cost: 2 - ca - cb });
    }
  }
  candidates.sort((p, q) => p.cost - q.cost);
  const used = new Set<LineEnd>();
  const pairs: [LineEnd, LineEnd][] = [];
  for (const { a, b } of candidates) {
    if (used.has(a) || used.has(b)) continue;
    if (ends.some((e) => e !== a && e !== b && crosses(e, a, b))) continue;
    used.add(a);
    used.add(b);
    pairs.push([a, b]);
  }
  return pairs;
}

/** Draws into `out` the line from a to b: the cross-sections at both ends, mixed along it, over the hole's pixels. */
function drawLine(out: Buffer, img: RawImage, hole: Uint8Array, a: LineEnd, b: LineEnd): void {
  const { width: w, height: h, channels: c } = img;
  const len = Math.hypot(b.x - a.x, b.y - a.y);
  const [ux, uy] = [(b.x - a.x) / len, (b.y - a.y) / len];
  const [nx, ny] = [-uy, ux];
  const section = (e: LineEnd) =>
    Array.from({ length: 2 * HALF_SECTION + 1 }, (_, j) =>
      Array.from({ length: c }, (_, k) => sample(img, e.x + (j - HALF_SECTION) * nx, e.y + (j - HALF_SECTION) * ny, k)),
    );
  const sa = section(a);
  const sb = section(b);
  // The half width where the section's luma stands out by over half its centre's contrast to its two sides.
  const halfWidth = (sec: number[][]) => {
    const y = sec.map((v) => lumaAt(v, 0));
    const side = ((y[0] as number) + (y[y.length - 1] as number)) / 2;
    const peak = Math.abs((y[HALF_SECTION] as number) - side);
    const standsOut = (j: number) => Math.abs((y[j] as number) - side) > peak / 2;
    let hw = 0;
    while (hw < HALF_SECTION - 1 && standsOut(HALF_SECTION + hw + 1) && standsOut(HALF_SECTION - hw - 1)) hw++;
    return hw + 0.5;
  };
  const hw = Math.min(MAX_HALF_WIDTH, (halfWidth(sa) + halfWidth(sb)) / 2);
  const x0 = Math.max(0, Math.floor(Math.min(a.x, b.x) - HALF_SECTION));
  const x1 = Math.min(w - 1, Math.ceil(Math.max(a.x, b.x) + HALF_SECTION));
  const y0 = Math.max(0, Math.floor(Math.min(a.y, b.y) - HALF_SECTION));
  const y1 = Math.min(h - 1, Math.ceil(Math.max(a.y, b.y) + HALF_SECTION));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const p = y * w + x;
      if (!hole[p]) continue;
      const t = ((x - a.x) * ux + (y - a.y) * uy) / len;
      const s = (x - a.x) * nx + (y - a.y) * ny;
      if (t < 0 || t > 1 || Math.abs(s) > HALF_SECTION) continue;
      const alpha = Math.min(1, Math.max(0, 1 - (Math.abs(s) - hw) / FADE));
      if (alpha <= 0) continue;
      const j = s + HALF_SECTION;
      const j0 = Math.min(2 * HALF_SECTION - 1, Math.floor(j));
      const f = j - j0;
      const at = (sec: number[][], k: number) =>
        (1 - f) * ((sec[j0] as number[])[k] as number) + f * ((sec[j0 + 1] as number[])[k] as number);
      for (let k = 0; k < c; k++) {
        const v = (1 - t) * at(sa, k) + t * at(sb, k);
        out[p * c + k] = Math.round(alpha * v + (1 - alpha) * (img.data[p * c + k] as number));
      }
    }
  }
}

/**
 * `filled` with the straight lines and edges that cross the hole (`hole`, one byte per pixel: the pixels it may
 * change) drawn through it. Only the box around the hole is read.
 */
export function bridgeLines(filled: RawImage, hole: Uint8Array): RawImage {
  const { width: w, height: h, channels: c } = filled;
  const found = maskBox({ data: hole, width: w, height: h });
  if (!found) return filled;
  // Room for the ring, the blur around it and the cross-sections.
  const box = padBox(found, RING.to + Math.ceil(3 * SIGMA) + HALF_SECTION + 2, w, h);
  const img = cropRaw(filled, box);
  const local = new Uint8Array(box.width * box.height);
  for (let y = 0; y < box.height; y++) {
    for (let x = 0; x < box.width; x++) local[y * box.width + x] = hole[(box.top + y) * w + box.left + x] ? 1 : 0;
  }
  const dist = distanceFrom(local, box.width, box.height);
  const ends = lineEnds(lumaPlane(img), dist, box.width, box.height);
  const pairs = pairEnds(ends, img, local);
  if (pairs.length === 0) return filled;
  const drawn = Buffer.from(img.data);
  for (const [a, b] of pairs) drawLine(drawn, img, local, a, b);
  const data = Buffer.from(filled.data);
  for (let y = 0; y < box.height; y++) {
    drawn.copy(data, ((box.top + y) * w + box.left) * c, y * box.width * c, (y + 1) * box.width * c);
  }
  return { ...filled, data };
}
