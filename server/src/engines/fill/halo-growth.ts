/**
 * The halo a painted mask left uncovered. A stroke over a date, or a blob over an object, may stop just inside the
 * mark's soft, antialiased edge, which then stays as a faint outline around the fill; growing the mask catches it, but
 * where the brush covered the whole mark the grown pixels are clean background, each one given up is context lost (a
 * stroke 5 px wide grown to 7 px has 40 % more to invent), and a blob grown blindly reaches onto a neighbouring object,
 * which the fills then carry into the hole (docs/fill.md, "A blob grows only where a halo shows"). So a pixel just
 * outside the mask joins the hole only where the mask's edge near it stands out from the background beyond it: the
 * edge pixels within EDGE_RADIUS differ from it by HALO_CONTRAST levels beyond the background's own spread, and the
 * pixel itself by at least HALO_SHARE of that. Only pixels outside the mask are looked at: what the brush covers never
 * decides the fill.
 */
import type { RawImage } from '../raster/image.js';
import { dilate } from '../raster/morphology.js';

/**
 * The background near an edge pixel is a plane (per channel) fitted to the known pixels within BACKGROUND_RADIUS
 * beyond the last ring the mask may grow to. The window reaches across a date's thin stroke to its other side, so a
 * gradient across the stroke (a cup's shading) is interpolated, not taken for a halo.
 */
const BACKGROUND_RADIUS = 8;
/**
 * The edge's difference is averaged over its pixels within EDGE_RADIUS: far enough to take in a thin stroke's other
 * side, so that a structure beside one side (a leaf's edge, a pebble) is not taken for a halo, as it was over 2 px.
 */
const EDGE_RADIUS = 6;
/**
 * How the edge's difference from the background is summed: along a stroke, as the mean difference (a date or a scratch
 * is one colour, and a structure beside one side of the stroke does not add up along it); around a blob, as the root
 * mean square (an object's edge changes colour along its outline, and a mean of dark and light parts cancels: on
 * objects whose edge fades over 1-3 px, the mean left a rim, 2-4 dB behind growing blindly; docs/fill.md).
 */
export type EdgeContrast = 'mean' | 'rms';
/** The edge must differ from the background by this many levels beyond the background's own spread ... */
const HALO_CONTRAST = 12;
/** ... and the pixel itself by this share of that difference. */
const HALO_SHARE = 0.25;

/**
 * 1 on the pixels grown from `seeds` (parts of the `painted` mask, nonzero = painted) ring by ring, up to `rings` rings
 * (8-neighbours), where they show a halo (above, the edge's difference summed as `contrast` says): each ring is tested
 * as the edge of what the rings before it took, so a soft edge a few pixels wide is followed outward and growth stops
 * where the background starts. The background is fitted beyond the last ring, so that the outer part of a glow is not
 * taken for background.
 */
export function haloGrowth(
  photo: RawImage,
  painted: Uint8Array,
  seeds: Uint8Array,
  rings: number,
  contrast: EdgeContrast,
): Uint8Array {
  const { width: w, height: h } = photo;
  const near = dilate(painted, w, h, rings);
  const grown = Uint8Array.from(seeds);
  const halo = new Uint8Array(w * h);
  const col = (q: number, c: number) => channel(photo, q, c);
  for (let r = 0; r < rings; r++) {
    const ring = dilate(grown, w, h, 1);
    const edge = (q: number) => ring[q] === 1 && !grown[q] && !painted[q];
    const taken: number[] = [];
    for (let p = 0; p < w * h; p++) {
      if (!edge(p)) continue;
      const x = p % w;
      const y = (p - x) / w;
      const background = fitPlane(photo, near, x, y);
      // With no background to compare with, the pixel is given up, as every edge once was.
      if (!background.fitted) {
        taken.push(p);
        continue;
      }
      const d = [0, 0, 0];
      let count = 0;
      let e2 = 0;
      for (let yy = Math.max(0, y - EDGE_RADIUS); yy <= Math.min(h - 1, y + EDGE_RADIUS); yy++) {
        for (let xx = Math.max(0, x - EDGE_RADIUS); xx <= Math.min(w - 1, x + EDGE_RADIUS); xx++) {
          const q = yy * w + xx;
          if (!edge(q)) continue;
          for (let c = 0; c < 3; c++) {
            const v = col(q, c) - background.at(c, xx - x, yy - y);
            d[c] = (d[c] as number) + v;
            e2 += v * v;
          }
          count++;
        }
      }
      for (let c = 0; c < 3; c++) d[c] = (d[c] as number) / count;
      const edgeDiff = contrast === 'mean' ? Math.hypot(...d) : Math.sqrt(e2 / count);
      if (edgeDiff < background.spread + HALO_CONTRAST) continue;
      // The pixel's own difference as a share of the edge's: along the edge's mean difference, or by its size.
      const own = [0, 1, 2].map((c) => col(p, c) - background.at(c, 0, 0));
      const share =
        contrast === 'mean'
          ? d.reduce((a, v, c) => a + v * (own[c] as number), 0) / (edgeDiff * edgeDiff)
          : Math.hypot(...own) / edgeDiff;
      if (share >= HALO_SHARE) taken.push(p);
    }
    if (taken.length === 0) break;
    for (const p of taken) grown[p] = halo[p] = 1;
  }
  return halo;
}

/** Channel `c` (0-2) of pixel `q`; a grey photo's one channel serves as all three. */
function channel(photo: RawImage, q: number, c: number): number {
  return photo.data[q * photo.channels + Math.min(c, photo.channels - 1)] as number;
}

interface Plane {
  fitted: boolean;
  /** The plane's value in channel `c` at (dx, dy) from the pixel it was fitted around. */
  at: (c: number, dx: number, dy: number) => number;
  /** The root mean square of the known pixels' distance (RGB) from it. */
  spread: number;
}

/** A least-squares plane per channel through the pixels within BACKGROUND_RADIUS of (x, y) that are not `near`. */
function fitPlane(photo: RawImage, near: Uint8Array, x: number, y: number): Plane {
  const { width: w, height: h } = photo;
  // Normal equations over (1, dx, dy): their sums, and each channel's sums of v, v dx, v dy, v^2.
  let [n, sx, sy, sxx, sxy, syy] = [0, 0, 0, 0, 0, 0];
  const sv = [0, 0, 0];
  const svx = [0, 0, 0];
  const svy = [0, 0, 0];
  let svv = 0;
  for (let yy = Math.max(0, y - BACKGROUND_RADIUS); yy <= Math.min(h - 1, y + BACKGROUND_RADIUS); yy++) {
    for (let xx = Math.max(0, x - BACKGROUND_RADIUS); xx <= Math.min(w - 1, x + BACKGROUND_RADIUS); xx++) {
      const q = yy * w + xx;
      if (near[q]) continue;
      const [dx, dy] = [xx - x, yy - y];
      n++;
      sx += dx;
      sy += dy;
      sxx += dx * dx;
      sxy += dx * dy;
      syy += dy * dy;
      for (let c = 0; c < 3; c++) {
        const v = channel(photo, q, c);
        sv[c] = (sv[c] as number) + v;
        svx[c] = (svx[c] as number) + v * dx;
        svy[c] = (svy[c] as number) + v * dy;
        svv += v * v;
      }
    }
  }
  const det = n * (sxx * syy - sxy * sxy) - sx * (sx * syy - sxy * sy) + sy * (sx * sxy - sxx * sy);
  if (n < 8 || Math.abs(det) < 1e-6) return { fitted: false, at: () => 0, spread: 0 };
  // Cramer's rule for each channel's (a, b, c) in v = a + b dx + c dy.
  const coef = [0, 1, 2].map((c) => {
    const [v, vx, vy] = [sv[c] as number, svx[c] as number, svy[c] as number];
    const a = (v * (sxx * syy - sxy * sxy) - sx * (vx * syy - sxy * vy) + sy * (vx * sxy - sxx * vy)) / det;
    const b = (n * (vx * syy - sxy * vy) - v * (sx * syy - sxy * sy) + sy * (sx * vy - vx * sy)) / det;
    const cy = (n * (sxx * vy - vx * sxy) - sx * (sx * vy - vx * sy) + v * (sx * sxy - sxx * sy)) / det;
    return [a, b, cy] as const;
  });
  // Residual sum of squares: sum v^2 less what the fit explains (a sum v + b sum v dx + c sum v dy), per channel.
  let explained = 0;
  for (let c = 0; c < 3; c++) {
    const [a, b, cy] = coef[c] as readonly [number, number, number];
    explained += a * (sv[c] as number) + b * (svx[c] as number) + cy * (svy[c] as number);
  }
  return {
    fitted: true,
    at: (c, dx, dy) => {
      const [a, b, cy] = coef[c] as readonly [number, number, number];
      return a + b * dx + cy * dy;
    },
    spread: Math.sqrt(Math.max(0, svv - explained) / n),
  };
}
