/**
 * Fill cases with masks painted the way people paint them, on real photos whose content under the mask is the truth:
 * a blob over background that touches a neighbouring object, a date stamped in strokes, a blob across a structure.
 * How a case's mask is painted and how a fill of it is scored, shared by the object-removal tests (which paint a few
 * cases of their own) and the fill bench (bench/fill/painted-cases.ts, which holds the case sets).
 */
import type { RawImage } from '../server/src/engines/raster/image.js';
import { blobMask, textureIn } from './fill-cases.js';
import { luma, psnr } from './metrics.js';

export type PaintedKind = 'touch' | 'text' | 'across';

/** A brush stroke: a polyline painted with a round brush of radius `r`. */
interface Stroke {
  r: number;
  pts: [number, number][];
}

export interface PaintedCaseSpec {
  name: string;
  kind: PaintedKind;
  /** What the mask covers and what it touches, in words. */
  ground: string;
  photo: string;
  /** Irregular blobs (as fill-cases.ts), brush strokes and text (digits, height `size`, brush radius `r`). */
  blobs?: { cx: number; cy: number; rx: number; ry: number }[];
  strokes?: Stroke[];
  text?: { s: string; x: number; y: number; size: number; r: number };
}

export interface PaintedCase extends PaintedCaseSpec {
  truth: RawImage;
  /** 255 where painted. */
  hole: RawImage;
}

/** Digits as polylines in a unit box (x right, y down), the way a date stamp is drawn. */
const GLYPHS: Record<string, [number, number][][]> = {
  '0': [
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ],
  ],
  '1': [
    [
      [0.3, 0.2],
      [0.6, 0],
      [0.6, 1],
    ],
  ],
  '2': [
    [
      [0, 0],
      [1, 0],
      [1, 0.5],
      [0, 0.5],
      [0, 1],
      [1, 1],
    ],
  ],
  '9': [
    [
      [1, 0.5],
      [0, 0.5],
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ],
  ],
};

function textStrokes(t: NonNullable<PaintedCaseSpec['text']>): Stroke[] {
  const cw = 0.6 * t.size;
  const out: Stroke[] = [];
  [...t.s].forEach((ch, k) => {
    for (const line of GLYPHS[ch] ?? []) {
      out.push({ r: t.r, pts: line.map(([u, v]) => [t.x + k * (cw + 0.4 * t.size) + u * cw, t.y + v * t.size]) });
    }
  });
  return out;
}

function paintStroke(data: Buffer, w: number, h: number, s: Stroke): void {
  for (let k = 0; k + 1 < s.pts.length || k === 0; k++) {
    const [ax, ay] = s.pts[k] as [number, number];
    const [bx, by] = (s.pts[k + 1] ?? s.pts[k]) as [number, number];
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy || 1;
    for (
      let y = Math.max(0, Math.floor(Math.min(ay, by) - s.r));
      y <= Math.min(h - 1, Math.ceil(Math.max(ay, by) + s.r));
      y++
    ) {
      for (
        let x = Math.max(0, Math.floor(Math.min(ax, bx) - s.r));
        x <= Math.min(w - 1, Math.ceil(Math.max(ax, bx) + s.r));
        x++
      ) {
        const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2));
        if ((x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2 <= s.r * s.r) data[y * w + x] = 255;
      }
    }
    if (s.pts.length < 2) break;
  }
}

/** The case painted over its photo's pixels; `index` (the case's number in the bench) seeds its blobs' shapes. */
export function paintCase(spec: PaintedCaseSpec, index: number, truth: RawImage): PaintedCase {
  const { width: w, height: h } = truth;
  const data = Buffer.alloc(w * h);
  for (const [k, b] of (spec.blobs ?? []).entries()) {
    const blob = blobMask(w, h, b, index + 1 + k);
    for (let i = 0; i < data.length; i++) if (blob.data[i]) data[i] = 255;
  }
  for (const s of [...(spec.strokes ?? []), ...(spec.text ? textStrokes(spec.text) : [])]) paintStroke(data, w, h, s);
  return { ...spec, truth, hole: { data, width: w, height: h, channels: 1 } };
}

/** Share of mask pixels whose luma is more than 80 levels from the truth's: something foreign pasted in. */
export function foreignShare(truth: RawImage, fill: RawImage, hole: RawImage): number {
  const a = luma(truth);
  const b = luma(fill);
  let n = 0;
  let far = 0;
  for (let i = 0; i < a.length; i++) {
    if (!hole.data[i]) continue;
    n++;
    if (Math.abs((a[i] as number) - (b[i] as number)) > 80) far++;
  }
  return far / n;
}

/** PSNR in the mask, texture ratio (fill over truth) and the foreign share of a fill. */
export function scorePainted(c: { truth: RawImage; hole: RawImage }, fill: RawImage) {
  return {
    db: psnr(fill.data, c.truth.data, 3, c.hole.data),
    texture: textureIn(fill, c.hole) / textureIn(c.truth, c.hole),
    foreign: foreignShare(c.truth, fill, c.hole),
  };
}
