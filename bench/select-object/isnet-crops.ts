import { ISNET_SIDE_STEP } from '../../server/src/engines/models/isnet-side.js';
import { clampRect, cropRaw, type Rect } from '../../server/src/engines/raster/geometry.js';
import type { RawImage } from '../../server/src/engines/raster/image.js';
import type { BoxCutter } from '../../server/src/engines/select/grabcut.js';
import { place } from '../../server/src/engines/select/grow.js';

/**
 * Select object's method before the segment-anything model, kept here so that bench/select-object.ts measures the
 * new one beside it (docs/select-object.md, "Against the method before"):
 *
 * - A click: the salient-object model (ISNet) on crops around the click, growing from tight to the whole photo
 *   until the object under the click lies wholly inside one. In a crop the object pointed at is the salient one,
 *   and small objects get the model's full resolution.
 * - A box: GrabCut, whose colour models learn the object from inside the box and the background from around it.
 *   It beat the model inside the box where the object's colours are unlike its surroundings' and held up where
 *   the model picked another object.
 */

/** Pixel coordinates in the upright photo (EXIF orientation applied). */
export type SelectPrompt =
  | { kind: 'point'; x: number; y: number }
  | { kind: 'box'; x0: number; y0: number; x1: number; y1: number };

/**
 * A soft mask (one channel, 0–255) of the salient object of an image, at the image's size. `rect` says which crop
 * of the photo `img` is (so that answers can be kept per crop for the following clicks).
 */
export type Segmenter = (img: RawImage, rect: Rect) => Promise<Buffer>;

/** Crop sides tried around a click, as shares of the photo's long side (the last one covers the whole photo). */
const POINT_CROPS = [0.3, 0.55, 1] as const;
/** GrabCut sees the box and this share of its size on each side, where it learns the background. */
const BOX_CONTEXT = 0.5;
/** Components smaller than this share of the largest one inside a box are specks, not parts of the object. */
const MIN_PART = 0.05;
/** A click this close to the object (share of the crop's long side) still picks it: clicks land on edges. */
const NEAR_CLICK = 0.03;
/**
 * A following click this close to the centre of a crop already seen on the same photo (share of its side) reuses
 * that crop, and the model's answer for it, instead of a crop centred on itself.
 */
export const REUSE_WITHIN = 0.125;

/** The smallest and largest side the model sees a click's crop at (docs/select-object.md, "Speed"). */
export const CLICK_MODEL_SIDES = { min: 512, max: 1024 } as const;

/**
 * The side the model sees a crop of this size at: the crop's own long side (rounded up to a multiple of
 * ISNET_SIDE_STEP), within CLICK_MODEL_SIDES. A crop smaller than 1024 px is no longer enlarged to
 * 1024, which costs about (side / 1024)² of a full run.
 */
export function clickModelSide(width: number, height: number): number {
  const own = Math.ceil(Math.max(width, height) / ISNET_SIDE_STEP) * ISNET_SIDE_STEP;
  return Math.min(CLICK_MODEL_SIDES.max, Math.max(CLICK_MODEL_SIDES.min, own));
}

/** Crops of this photo whose answers are known (the engine keeps them per photo): one may be reused. */
export type KnownCrops = () => Rect[];

/** The selection as a 0/255 mask of the whole photo (empty when nothing was found). */
export async function selectObject(
  img: RawImage,
  prompt: SelectPrompt,
  methods: { segment: Segmenter; cutBox: BoxCutter; known?: KnownCrops; outer?: OuterCrops },
): Promise<Buffer> {
  return prompt.kind === 'point'
    ? selectAtPoint(img, prompt, methods.segment, methods.known ?? (() => []), methods.outer ?? 'grid')
    : selectInBox(img, prompt, methods.cutBox);
}

async function selectAtPoint(
  img: RawImage,
  p: { x: number; y: number },
  segment: Segmenter,
  known: KnownCrops,
  outer: OuterCrops,
): Promise<Buffer> {
  let best: Buffer | undefined;
  for (const [level, share] of POINT_CROPS.entries()) {
    const side = share * Math.max(img.width, img.height);
    const centred = squareAround(img, p.x, p.y, side);
    // The first crop: centred on the click, or a crop of the same size seen before whose centre is near it (the
    // following clicks reuse the first's). The larger ones come from a fixed grid, so that they can be prepared
    // before the first click (`outer: 'centred'` is the method before, for bench/select-object.ts).
    const rect =
      level > 0
        ? outer === 'grid' && gridded(img)
          ? gridCrop(img, share, p)
          : centred
        : (known().find(
            (r) =>
              r.width === centred.width &&
              r.height === centred.height &&
              Math.abs(r.left + r.width / 2 - p.x) <= REUSE_WITHIN * side &&
              Math.abs(r.top + r.height / 2 - p.y) <= REUSE_WITHIN * side,
          ) ?? centred);
    const soft = await segment(cropRaw(img, rect), rect);
    const near = NEAR_CLICK * Math.max(rect.width, rect.height);
    const part = componentAt(binary(soft), rect.width, rect.height, p.x - rect.left, p.y - rect.top, near);
    if (!part) continue;
    best = place(part, rect, img.width, img.height);
    // Complete when it keeps clear of every crop edge that is not the photo's own edge.
    if (!touchesInnerEdge(part, rect, img.width, img.height)) break;
  }
  return best ?? Buffer.alloc(img.width * img.height);
}

async function selectInBox(
  img: RawImage,
  b: { x0: number; y0: number; x1: number; y1: number },
  cutBox: BoxCutter,
): Promise<Buffer> {
  const { rect, inner } = boxCrop(img, b, BOX_CONTEXT);
  const mask = await cutBox(cropRaw(img, rect), inner);
  return place(keepLargeParts(mask, rect.width, rect.height), rect, img.width, img.height);
}

/** The crop around a box (the box widened by `margin` of its size each way) and the box in the crop's coordinates. */
export function boxCrop(
  img: { width: number; height: number },
  b: { x0: number; y0: number; x1: number; y1: number },
  margin: number,
): { rect: Rect; inner: Rect } {
  const box = normaliseBox(img, b);
  const mx = Math.round(box.width * margin);
  const my = Math.round(box.height * margin);
  const rect = clampRect(img, box.left - mx, box.top - my, box.width + 2 * mx, box.height + 2 * my);
  return { rect, inner: { left: box.left - rect.left, top: box.top - rect.top, width: box.width, height: box.height } };
}

/** A box drawn in any direction, clamped to the photo and at least 2 px each way. */
export function normaliseBox(
  img: { width: number; height: number },
  b: { x0: number; y0: number; x1: number; y1: number },
): Rect {
  const left = Math.max(0, Math.floor(Math.min(b.x0, b.x1)));
  const top = Math.max(0, Math.floor(Math.min(b.y0, b.y1)));
  const right = Math.min(img.width, Math.ceil(Math.max(b.x0, b.x1)));
  const bottom = Math.min(img.height, Math.ceil(Math.max(b.y0, b.y1)));
  return { left, top, width: Math.max(2, right - left), height: Math.max(2, bottom - top) };
}

/**
 * The larger crops of a click (all but the first, 30 % one) come from a grid per size whose centres are at most
 * GRID_OFFSET of the crop's side from the click's own, the distance at which a following click reuses a crop: the
 * crops a click may need beyond its first are then known before any click, and can be prepared (services/select-prepare.ts).
 */
export const GRID_OFFSET = REUSE_WITHIN;

/**
 * Whether a photo's larger crops come from the grid: where its 55 % crop is seen shrunk to the model's largest side
 * (a long side from 1862 px), the runs the first click waits for. On smaller photos the first click is quick
 * without preparation, and there the grid cost IoU (the cases at their own size, 451–640 px: 0.883 → 0.587, the
 * crops moved by a few pixels changed the model's answer), so their crops stay centred on the click.
 */
export function gridded(img: { width: number; height: number }): boolean {
  return POINT_CROPS[1] * Math.max(img.width, img.height) >= CLICK_MODEL_SIDES.max;
}

/** How a click's larger crops are placed: from the grid, or centred on the click (before; the bench compares). */
export type OuterCrops = 'grid' | 'centred';

/** Along one axis: the crop's start on the grid nearest to centring it on `at` (length `size`, crop `w`). */
function gridStart(size: number, w: number, at: number, spacing: number, index?: number): number {
  const span = size - w;
  const n = Math.max(1, Math.ceil(span / spacing));
  const step = span / n;
  const i = index ?? Math.min(n - 1, Math.max(0, Math.floor((at - w / 2) / (step || 1))));
  return Math.round((i + 0.5) * step);
}

/** The crops of one grid: this share of the photo's long side (cut to the photo), and the spacing of their starts. */
function gridCell(img: { width: number; height: number }, share: number) {
  const side = share * Math.max(img.width, img.height);
  return {
    w: Math.min(img.width, Math.round(side)),
    h: Math.min(img.height, Math.round(side)),
    spacing: 2 * GRID_OFFSET * side,
  };
}

/** The grid crop of this share of the photo's long side nearest to the crop of that size centred on the point. */
export function gridCrop(img: { width: number; height: number }, share: number, p: { x: number; y: number }): Rect {
  const { w, h, spacing } = gridCell(img, share);
  return {
    left: gridStart(img.width, w, p.x, spacing),
    top: gridStart(img.height, h, p.y, spacing),
    width: w,
    height: h,
  };
}

/**
 * Every crop a click may need beyond its first, nearest the photo's centre first and the largest last (most clicks
 * need the 55 % crop, few the whole photo): what preparing a photo computes.
 */
export function gridCrops(img: { width: number; height: number }): Rect[] {
  const out: Rect[] = [];
  // The whole photo is the same crop with or without the grid.
  for (const share of gridded(img) ? POINT_CROPS.slice(1) : [1]) {
    const { w, h, spacing } = gridCell(img, share);
    const count = (span: number) => Math.max(1, Math.ceil(span / spacing));
    const level: Rect[] = [];
    for (let j = 0; j < count(img.height - h); j++) {
      for (let i = 0; i < count(img.width - w); i++) {
        const left = gridStart(img.width, w, 0, spacing, i);
        const top = gridStart(img.height, h, 0, spacing, j);
        level.push({ left, top, width: w, height: h });
      }
    }
    const off = (r: Rect) => Math.hypot(r.left + w / 2 - img.width / 2, r.top + h / 2 - img.height / 2);
    out.push(...level.sort((a, b) => off(a) - off(b)));
  }
  return out;
}

/**
 * The first this many crops are prepared at once (each a full model run, about 1–2 s on an idle 2-core machine);
 * the rest only in the server's spare time (services/select-prepare.ts).
 */
export const PREPARED_AT_ONCE = 6;

/**
 * The crops preparing a photo computes, in order: on a landscape photo every grid crop (four of 55 % and the whole
 * photo at 3:2), all at once; on a squarer one first the 55 % crops nearest the centre and the whole photo
 * (PREPARED_AT_ONCE in all), then its other 55 % crops, nearest the centre first. A click that needs a crop not
 * prepared yet computes it, as without preparation.
 */
export function preparedCrops(img: { width: number; height: number }): Rect[] {
  const all = gridCrops(img);
  if (all.length <= PREPARED_AT_ONCE) return all;
  const whole = all[all.length - 1] as Rect;
  return [...all.slice(0, PREPARED_AT_ONCE - 1), whole, ...all.slice(PREPARED_AT_ONCE - 1, -1)];
}

/** A square of the given side centred on the point, shifted (and cut) to stay inside the photo. */
function squareAround(img: { width: number; height: number }, x: number, y: number, side: number): Rect {
  const w = Math.min(img.width, Math.round(side));
  const h = Math.min(img.height, Math.round(side));
  const left = Math.min(img.width - w, Math.max(0, Math.round(x - w / 2)));
  const top = Math.min(img.height - h, Math.max(0, Math.round(y - h / 2)));
  return { left, top, width: w, height: h };
}

export function binary(soft: Buffer): Uint8Array {
  const out = new Uint8Array(soft.length);
  for (let i = 0; i < soft.length; i++) out[i] = (soft[i] as number) >= 128 ? 1 : 0;
  return out;
}

/** Labels 4-connected components of a 0/1 mask; returns the labels (0 = background) and each label's size. */
function components(mask: Uint8Array, width: number, height: number): { labels: Int32Array; sizes: number[] } {
  const labels = new Int32Array(width * height);
  const sizes = [0];
  const stack: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || labels[start]) continue;
    const label = sizes.length;
    let size = 0;
    labels[start] = label;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop() as number;
      size++;
      const x = i % width;
      const y = (i - x) / width;
      // The neighbours, inline: a closure made per pixel (which tsx also wraps in a naming helper) cost more than
      // the labelling itself.
      for (let k = 0; k < 4; k++) {
        if (k === 0 ? x === 0 : k === 1 ? x === width - 1 : k === 2 ? y === 0 : y === height - 1) continue;
        const j = k === 0 ? i - 1 : k === 1 ? i + 1 : k === 2 ? i - width : i + width;
        if (mask[j] && !labels[j]) {
          labels[j] = label;
          stack.push(j);
        }
      }
    }
    sizes.push(size);
  }
  return { labels, sizes };
}

/** The component under (x, y), or the one nearest to it within `near` pixels; null when there is none. */
function componentAt(
  mask: Uint8Array,
  width: number,
  height: number,
  x: number,
  y: number,
  near: number,
): Uint8Array | null {
  const { labels } = components(mask, width, height);
  const cx = Math.min(width - 1, Math.max(0, Math.round(x)));
  const cy = Math.min(height - 1, Math.max(0, Math.round(y)));
  let label = labels[cy * width + cx] as number;
  if (!label) {
    let bestD = near * near;
    const r = Math.ceil(near);
    for (let yy = Math.max(0, cy - r); yy <= Math.min(height - 1, cy + r); yy++) {
      for (let xx = Math.max(0, cx - r); xx <= Math.min(width - 1, cx + r); xx++) {
        const l = labels[yy * width + xx] as number;
        const d = (xx - cx) ** 2 + (yy - cy) ** 2;
        if (l && d <= bestD) {
          bestD = d;
          label = l;
        }
      }
    }
  }
  if (!label) return null;
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < out.length; i++) if (labels[i] === label) out[i] = 1;
  return out;
}

/** The largest component and those at least MIN_PART of its size (a handle, a spoon beside the cup). */
export function keepLargeParts(mask: Uint8Array, width: number, height: number): Uint8Array {
  const { labels, sizes } = components(mask, width, height);
  const largest = Math.max(0, ...sizes.slice(1));
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < out.length; i++) {
    const l = labels[i] as number;
    if (l && (sizes[l] as number) >= MIN_PART * largest) out[i] = 1;
  }
  return out;
}

function touchesInnerEdge(part: Uint8Array, r: Rect, imgWidth: number, imgHeight: number): boolean {
  const { width, height } = r;
  const edges: [boolean, (k: number) => number, number][] = [
    [r.left > 0, (k) => k * width, height],
    [r.left + width < imgWidth, (k) => k * width + width - 1, height],
    [r.top > 0, (k) => k, width],
    [r.top + height < imgHeight, (k) => (height - 1) * width + k, width],
  ];
  for (const [inner, index, n] of edges) {
    if (!inner) continue;
    for (let k = 0; k < n; k++) if (part[index(k)]) return true;
  }
  return false;
}
