import type { RawImage } from '../engines/shared/image.js';

/**
 * "Select object": from a click on an object (or a box around it) to a mask of that object, for the mask editor.
 *
 * The salient-object model (ISNet) is run on crops around the prompt rather than on the whole photo: in a crop the
 * object the visitor pointed at is the salient one, and small objects get the model's full resolution. For a click
 * the crops grow from tight to the whole photo until the object under the click lies wholly inside one; for a box
 * the crop is the box with a margin. docs/select-object.md has the measurements that chose this over GrabCut.
 */

/** Pixel coordinates in the upright photo (EXIF orientation applied). */
export type SelectPrompt =
  | { kind: 'point'; x: number; y: number }
  | { kind: 'box'; x0: number; y0: number; x1: number; y1: number };

/** A soft mask (one channel, 0–255) of the salient object of an image, at the image's size. */
export type Segmenter = (img: RawImage) => Promise<Buffer>;

/**
 * Redraws a rough 0/1 mask of a crop along the crop's own colour edges (GrabCut): `region` is where the object
 * may be (outside it is background for certain); `sure` a pixel that is the object for certain.
 */
export type Refiner = (crop: RawImage, rough: Uint8Array, region: Rect, sure?: [number, number]) => Uint8Array;

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Crop sides tried around a click, as shares of the photo's long side (the last one covers the whole photo). */
const POINT_CROPS = [0.3, 0.55, 1] as const;
/** A box is widened by this share of its size on each side, so the model sees the object's surroundings. */
const BOX_MARGIN = 0.1;
/** Components smaller than this share of the largest one inside a box are specks, not parts of the object. */
const MIN_PART = 0.05;
/** A click this close to the object (share of the crop's long side) still picks it: clicks land on edges. */
const NEAR_CLICK = 0.03;

/** Growth of the returned selection, so that removal leaves no halo of the object's soft edge or shadow. */
export function dilationRadius(width: number, height: number): number {
  return Math.max(3, Math.round(0.008 * Math.max(width, height)));
}

export async function selectObject(
  img: RawImage,
  prompt: SelectPrompt,
  segment: Segmenter,
  refine?: Refiner,
): Promise<Buffer> {
  return prompt.kind === 'point'
    ? selectAtPoint(img, prompt, segment, refine)
    : selectInBox(img, prompt, segment, refine);
}

async function selectAtPoint(
  img: RawImage,
  p: { x: number; y: number },
  segment: Segmenter,
  refine?: Refiner,
): Promise<Buffer> {
  let best: { part: Uint8Array; rect: Rect; pixels: RawImage } | undefined;
  for (const share of POINT_CROPS) {
    const rect = squareAround(img, p.x, p.y, share * Math.max(img.width, img.height));
    const pixels = crop(img, rect);
    const soft = await segment(pixels);
    const near = NEAR_CLICK * Math.max(rect.width, rect.height);
    const part = componentAt(binary(soft), rect.width, rect.height, p.x - rect.left, p.y - rect.top, near);
    if (!part) continue;
    best = { part, rect, pixels };
    // Complete when it keeps clear of every crop edge that is not the photo's own edge.
    if (!touchesInnerEdge(part, rect, img.width, img.height)) break;
  }
  if (!best) return Buffer.alloc(img.width * img.height);
  let { part } = best;
  const { rect, pixels } = best;
  if (refine) {
    const bounds = boundsOf(part, rect.width, rect.height);
    const mx = Math.round(bounds.width * BOX_MARGIN);
    const my = Math.round(bounds.height * BOX_MARGIN);
    const region = clampRect(rect, bounds.left - mx, bounds.top - my, bounds.width + 2 * mx, bounds.height + 2 * my);
    const sure: [number, number] = [Math.round(p.x - rect.left), Math.round(p.y - rect.top)];
    const refined = refine(pixels, part, region, sure);
    part = componentAt(refined, rect.width, rect.height, sure[0], sure[1], 0) ?? part;
  }
  return place(part, rect, img.width, img.height);
}

async function selectInBox(
  img: RawImage,
  b: { x0: number; y0: number; x1: number; y1: number },
  segment: Segmenter,
  refine?: Refiner,
): Promise<Buffer> {
  const box = normaliseBox(img, b);
  const mx = Math.round(box.width * BOX_MARGIN);
  const my = Math.round(box.height * BOX_MARGIN);
  const rect = clampRect(img, box.left - mx, box.top - my, box.width + 2 * mx, box.height + 2 * my);
  const pixels = crop(img, rect);
  let mask = binary(await segment(pixels));
  const inner = { left: box.left - rect.left, top: box.top - rect.top, width: box.width, height: box.height };
  if (refine) mask = refine(pixels, mask, inner);
  // Only what lies inside the box drawn counts.
  for (let y = 0; y < rect.height; y++) {
    for (let x = 0; x < rect.width; x++) {
      const gx = x + rect.left;
      const gy = y + rect.top;
      if (gx < box.left || gy < box.top || gx >= box.left + box.width || gy >= box.top + box.height) {
        mask[y * rect.width + x] = 0;
      }
    }
  }
  return place(keepLargeParts(mask, rect.width, rect.height), rect, img.width, img.height);
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

function clampRect(img: { width: number; height: number }, left: number, top: number, w: number, h: number): Rect {
  const l = Math.max(0, Math.round(left));
  const t = Math.max(0, Math.round(top));
  return {
    left: l,
    top: t,
    width: Math.max(1, Math.min(img.width, Math.round(left + w)) - l),
    height: Math.max(1, Math.min(img.height, Math.round(top + h)) - t),
  };
}

/** A square of the given side centred on the point, shifted (and cut) to stay inside the photo. */
function squareAround(img: { width: number; height: number }, x: number, y: number, side: number): Rect {
  const w = Math.min(img.width, Math.round(side));
  const h = Math.min(img.height, Math.round(side));
  const left = Math.min(img.width - w, Math.max(0, Math.round(x - w / 2)));
  const top = Math.min(img.height - h, Math.max(0, Math.round(y - h / 2)));
  return { left, top, width: w, height: h };
}

function crop(img: RawImage, r: Rect): RawImage {
  const c = img.channels;
  const out = Buffer.alloc(r.width * r.height * c);
  for (let y = 0; y < r.height; y++) {
    const from = ((y + r.top) * img.width + r.left) * c;
    img.data.copy(out, y * r.width * c, from, from + r.width * c);
  }
  return { data: out, width: r.width, height: r.height, channels: img.channels };
}

/** The bounding box of a 0/1 mask's set pixels (the whole mask when none is set). */
function boundsOf(mask: Uint8Array, width: number, height: number): Rect {
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  return x1 < 0 ? { left: 0, top: 0, width, height } : { left: x0, top: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

function binary(soft: Buffer): Uint8Array {
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
      const visit = (j: number) => {
        if (mask[j] && !labels[j]) {
          labels[j] = label;
          stack.push(j);
        }
      };
      if (x > 0) visit(i - 1);
      if (x < width - 1) visit(i + 1);
      if (y > 0) visit(i - width);
      if (y < height - 1) visit(i + width);
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
function keepLargeParts(mask: Uint8Array, width: number, height: number): Uint8Array {
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

/** A crop's 0/1 mask placed into a 0/255 mask of the whole photo. */
function place(part: Uint8Array, r: Rect, width: number, height: number): Buffer {
  const out = Buffer.alloc(width * height);
  for (let y = 0; y < r.height; y++) {
    for (let x = 0; x < r.width; x++) {
      if (part[y * r.width + x]) out[(y + r.top) * width + x + r.left] = 255;
    }
  }
  return out;
}

/**
 * Grows a 0/255 mask by `radius` pixels with a round brush: a two-pass chamfer distance to the mask (steps 1 and
 * √2 approximate the Euclidean distance within 8 %), then every pixel within the radius is set.
 */
export function dilate(mask: Buffer, width: number, height: number, radius: number): Buffer {
  const INF = 1e9;
  const d = new Float32Array(width * height);
  for (let i = 0; i < d.length; i++) d[i] = (mask[i] as number) >= 128 ? 0 : INF;
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
  const out = Buffer.alloc(width * height);
  for (let i = 0; i < out.length; i++) if ((d[i] as number) <= radius) out[i] = 255;
  return out;
}
