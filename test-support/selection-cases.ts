import path from 'node:path';
import sharp from 'sharp';

/**
 * Cases for "Select object" with a known truth: objects cut from fixture photos by their hand-traced masks
 * (fixtures/masks) and pasted onto other fixture photos, where the pasted alpha is the truth; plus the two
 * objects in their own photos. The click is the truth's pixel nearest its centroid; the box is its bounding box
 * widened by 5 %.
 */
const fixtures = path.resolve(import.meta.dirname, '../fixtures');

export interface SelectionCase {
  name: string;
  /** The photo as a PNG. */
  image: Buffer;
  width: number;
  height: number;
  /** One channel, 0 or 255. */
  truth: Buffer;
  point: { x: number; y: number };
  box: { x0: number; y0: number; x1: number; y1: number };
}

interface Paste {
  object: 'coffee' | 'astronaut';
  onto: string;
  /** Height of the pasted object as a share of the background's height. */
  scale: number;
  /** Centre of the pasted object, as shares of the background's size. */
  at: [number, number];
}

const PASTES: Paste[] = [
  { object: 'coffee', onto: 'rocket.jpg', scale: 0.4, at: [0.25, 0.7] },
  { object: 'coffee', onto: 'chelsea.png', scale: 0.45, at: [0.78, 0.6] },
  { object: 'coffee', onto: 'camera.png', scale: 0.3, at: [0.7, 0.75] },
  { object: 'astronaut', onto: 'rocket.jpg', scale: 0.55, at: [0.75, 0.6] },
  { object: 'astronaut', onto: 'chelsea.png', scale: 0.6, at: [0.2, 0.6] },
  { object: 'astronaut', onto: 'coffee.png', scale: 0.35, at: [0.8, 0.25] },
];

async function rgb(file: string) {
  return sharp(path.join(fixtures, file))
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
}

async function grey(file: string, width: number, height: number): Promise<Buffer> {
  return sharp(path.join(fixtures, file)).greyscale().resize(width, height, { fit: 'fill' }).raw().toBuffer();
}

/** The truth pixel nearest the truth's centroid, and its bounding box widened by 5 %. */
function prompts(truth: Buffer, width: number, height: number) {
  let sx = 0;
  let sy = 0;
  let n = 0;
  let x0 = width;
  let y0 = height;
  let x1 = 0;
  let y1 = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!truth[y * width + x]) continue;
      sx += x;
      sy += y;
      n++;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  }
  const cx = sx / n;
  const cy = sy / n;
  let best = { x: 0, y: 0 };
  let bestD = Number.POSITIVE_INFINITY;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = (x - cx) ** 2 + (y - cy) ** 2;
      if (truth[y * width + x] && d < bestD) {
        bestD = d;
        best = { x, y };
      }
    }
  }
  const mx = 0.05 * (x1 - x0);
  const my = 0.05 * (y1 - y0);
  const box = {
    x0: Math.max(0, x0 - mx),
    y0: Math.max(0, y0 - my),
    x1: Math.min(width, x1 + 1 + mx),
    y1: Math.min(height, y1 + 1 + my),
  };
  return { point: best, box };
}

async function pasted(p: Paste): Promise<SelectionCase> {
  const bg = await rgb(p.onto);
  const { width, height } = bg.info;
  const src = await sharp(path.join(fixtures, `${p.object}.png`)).metadata();
  const h = Math.round(p.scale * height);
  const w = Math.round((h * (src.width as number)) / (src.height as number));
  const obj = await sharp(path.join(fixtures, `${p.object}.png`))
    .removeAlpha()
    .resize(w, h, { kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  const alpha = await grey(`masks/${p.object}.png`, w, h);
  const left = Math.round(p.at[0] * width - w / 2);
  const top = Math.round(p.at[1] * height - h / 2);
  const image = Buffer.from(bg.data);
  const truth = Buffer.alloc(width * height);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const gx = x + left;
      const gy = y + top;
      if (gx < 0 || gy < 0 || gx >= width || gy >= height) continue;
      const a = (alpha[y * w + x] as number) / 255;
      const i = gy * width + gx;
      for (let c = 0; c < 3; c++) {
        const j = i * 3 + c;
        image[j] = Math.round(a * (obj[(y * w + x) * 3 + c] as number) + (1 - a) * (image[j] as number));
      }
      if (a >= 0.5) truth[i] = 255;
    }
  }
  const png = await sharp(image, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
  return { name: `${p.object} on ${p.onto}`, image: png, width, height, truth, ...prompts(truth, width, height) };
}

async function inPlace(object: 'coffee' | 'astronaut'): Promise<SelectionCase> {
  const img = await rgb(`${object}.png`);
  const { width, height } = img.info;
  const m = await grey(`masks/${object}.png`, width, height);
  const truth = Buffer.alloc(width * height);
  for (let i = 0; i < truth.length; i++) truth[i] = (m[i] as number) >= 128 ? 255 : 0;
  const image = await sharp(path.join(fixtures, `${object}.png`))
    .png()
    .toBuffer();
  return { name: `${object} in its photo`, image, width, height, truth, ...prompts(truth, width, height) };
}

export async function selectionCases(): Promise<SelectionCase[]> {
  return [...(await Promise.all(PASTES.map(pasted))), await inPlace('coffee'), await inPlace('astronaut')];
}

/** Intersection over union of two 0/255 masks (>= 128 counts as inside). */
export function iou(a: Buffer, b: Buffer): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    const x = (a[i] as number) >= 128;
    const y = (b[i] as number) >= 128;
    if (x && y) inter++;
    if (x || y) union++;
  }
  return union ? inter / union : 0;
}

/** Share of the truth inside the mask: 1 means nothing of the object would be left behind. */
export function coverage(mask: Buffer, truth: Buffer): number {
  let inside = 0;
  let total = 0;
  for (let i = 0; i < truth.length; i++) {
    if ((truth[i] as number) < 128) continue;
    total++;
    if ((mask[i] as number) >= 128) inside++;
  }
  return total ? inside / total : 0;
}
