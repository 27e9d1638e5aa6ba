/**
 * Fill cases with known truth: an object (a piece of another fixture photo) is pasted onto a fixture photo inside an
 * irregular blob, over textured or structured ground: lines, stripes and edges that cross it, grass-like texture,
 * smooth sky. The truth is the fixture before pasting; the hole is the blob grown by HOLE_GROWTH pixels, as a user's
 * brush stroke covers an object with a little to spare. Built deterministically from the fixtures, so the cases
 * never change with the algorithm they measure.
 */

import { loadOpenCv, withMats } from '../server/src/engines/models/opencv.js';
import type { RawImage } from '../server/src/engines/raster/image.js';
import { dilateMask } from '../server/src/engines/raster/morphology.js';
import type { Engine } from '../server/src/engines/types.js';
import { fixturePixels, fromPng, recordingContext, toPng } from './engine-ctx.js';
import { gradientMagnitude, luma, psnr } from './metrics.js';

export interface FillCaseSpec {
  name: string;
  /** What the hole covers, in words. */
  ground: string;
  photo: string;
  /** Blob centre and radii in the photo's pixels. */
  cx: number;
  cy: number;
  rx: number;
  ry: number;
  /** The pasted object: the fixture it is cut from, and the point of that fixture placed at the blob's centre. */
  object: { photo: string; x: number; y: number };
}

export interface FillCase extends FillCaseSpec {
  truth: RawImage;
  /** The photo with the object pasted in. */
  photoWithObject: RawImage;
  /** 255 where the fill must go. */
  hole: RawImage;
}

/** Pixels the hole extends beyond the pasted object. */
export const HOLE_GROWTH = 2;

const EYE = { photo: 'chelsea.png', x: 165, y: 115 };
const SPOON = { photo: 'coffee.png', x: 365, y: 280 };
const FACE = { photo: 'astronaut.png', x: 225, y: 130 };

export const FILL_CASES: FillCaseSpec[] = [
  { name: 'coffee-wood', ground: 'wood grain', photo: 'coffee.png', cx: 525, cy: 150, rx: 30, ry: 24, object: EYE },
  { name: 'coffee-rim', ground: 'saucer rim', photo: 'coffee.png', cx: 82, cy: 235, rx: 24, ry: 20, object: EYE },
  { name: 'coffee-cup', ground: 'cup edge', photo: 'coffee.png', cx: 176, cy: 160, rx: 16, ry: 22, object: EYE },
  { name: 'camera-leg', ground: 'tripod leg', photo: 'camera.png', cx: 355, cy: 420, rx: 14, ry: 14, object: SPOON },
  { name: 'camera-grass', ground: 'grass', photo: 'camera.png', cx: 440, cy: 380, rx: 30, ry: 26, object: SPOON },
  { name: 'camera-horizon', ground: 'horizon', photo: 'camera.png', cx: 440, cy: 232, rx: 16, ry: 20, object: EYE },
  { name: 'camera-sky', ground: 'smooth sky', photo: 'camera.png', cx: 130, cy: 70, rx: 40, ry: 30, object: EYE },
  {
    name: 'flag-stripes',
    ground: 'flag stripes',
    photo: 'astronaut.png',
    cx: 45,
    cy: 280,
    rx: 18,
    ry: 18,
    object: SPOON,
  },
  { name: 'rocket-mast', ground: 'thin mast', photo: 'rocket.jpg', cx: 448, cy: 160, rx: 12, ry: 12, object: FACE },
  { name: 'rocket-body', ground: 'rocket edge', photo: 'rocket.jpg', cx: 334, cy: 250, rx: 14, ry: 18, object: FACE },
  { name: 'rocket-sky', ground: 'evening sky', photo: 'rocket.jpg', cx: 250, cy: 110, rx: 35, ry: 30, object: EYE },
  { name: 'cat-stripes', ground: 'fur stripes', photo: 'chelsea.png', cx: 260, cy: 35, rx: 22, ry: 18, object: SPOON },
  { name: 'cat-whiskers', ground: 'whiskers', photo: 'chelsea.png', cx: 75, cy: 240, rx: 20, ry: 16, object: FACE },
];

/** An irregular blob: an ellipse whose radius wobbles with angle, the wobble's phase set by `seed`. */
export function blobMask(w: number, h: number, s: Pick<FillCaseSpec, 'cx' | 'cy' | 'rx' | 'ry'>, seed: number) {
  const data = Buffer.alloc(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const u = (x - s.cx) / s.rx;
      const v = (y - s.cy) / s.ry;
      const a = Math.atan2(v, u);
      const r = 1 + 0.12 * Math.sin(3 * a + seed) + 0.06 * Math.sin(5 * a + 2 * seed);
      if (u * u + v * v <= r * r) data[y * w + x] = 255;
    }
  }
  return { data, width: w, height: h, channels: 1 } satisfies RawImage;
}

export async function buildFillCase(spec: FillCaseSpec, index: number): Promise<FillCase> {
  const truth = await fixturePixels(spec.photo);
  const obj = await fixturePixels(spec.object.photo);
  const { width: w, height: h } = truth;
  const object = blobMask(w, h, spec, index + 1);
  const data = Buffer.from(truth.data);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!object.data[y * w + x]) continue;
      const ox = Math.min(obj.width - 1, Math.max(0, x - spec.cx + spec.object.x));
      const oy = Math.min(obj.height - 1, Math.max(0, y - spec.cy + spec.object.y));
      obj.data.copy(data, (y * w + x) * 3, (oy * obj.width + ox) * 3, (oy * obj.width + ox) * 3 + 3);
    }
  }
  return { ...spec, truth, photoWithObject: { ...truth, data }, hole: dilateMask(object, HOLE_GROWTH) };
}

/** Mean Sobel gradient magnitude of the luma inside the hole: how much texture there is. */
export function textureIn(img: RawImage, hole: RawImage): number {
  const g = gradientMagnitude(luma(img), img.width, img.height);
  let s = 0;
  let n = 0;
  for (let i = 0; i < g.length; i++) {
    if (!hole.data[i]) continue;
    s += g[i] as number;
    n++;
  }
  return s / n;
}

/** OpenCV's cv.inpaint (Telea, radius 5) of an RGB photo: the plain diffusion baseline. */
export async function teleaFill(photo: RawImage, hole: RawImage): Promise<RawImage> {
  const cv = await loadOpenCv();
  return withMats((track) => {
    const src = track(cv.matFromArray(photo.height, photo.width, cv.CV_8UC3, photo.data));
    const m = track(cv.matFromArray(hole.height, hole.width, cv.CV_8UC1, hole.data));
    const dst = track(new cv.Mat());
    cv.inpaint(src, m, dst, 5, cv.INPAINT_TELEA);
    return { ...photo, data: Buffer.from(dst.data) };
  });
}

/** A fill engine (object removal or inpainting) run as the app runs it, PNG in and out. */
export async function engineFill(engine: Engine, photo: RawImage, hole: RawImage): Promise<RawImage> {
  const { ctx } = recordingContext();
  const input = {
    operation: 'object-removal' as const,
    image: await toPng(photo),
    mask: await toPng(hole),
    params: {},
  };
  return fromPng((await engine.run(input, ctx)).images[0] as Buffer);
}

/** The case of that name, built. */
export function namedFillCase(name: string): Promise<FillCase> {
  const i = FILL_CASES.findIndex((c) => c.name === name);
  if (i < 0) throw new Error(`No fill case ${name}`);
  return buildFillCase(FILL_CASES[i] as FillCaseSpec, i);
}

/** PSNR inside the hole and texture ratio (fill over truth) of a fill of a case. */
export function scoreFill(c: FillCase, fill: RawImage) {
  return {
    db: psnr(fill.data, c.truth.data, 3, c.hole.data),
    texture: textureIn(fill, c.hole) / textureIn(c.truth, c.hole),
  };
}

/**
 * How much of a bright line crossing the hole the fill keeps: the fill's luma on the line's true pixels minus its
 * luma on the rest of the hole, over the same for the truth (1 = continued at full contrast, 0 = smoothed away).
 */
export function lineKept(c: FillCase, fill: RawImage, threshold: number): number {
  const truth = luma(c.truth);
  const ours = luma(fill);
  const sums = { on: [0, 0, 0], off: [0, 0, 0] };
  for (let i = 0; i < truth.length; i++) {
    if (!c.hole.data[i]) continue;
    const side = (truth[i] as number) > threshold ? sums.on : sums.off;
    side[0] = (side[0] as number) + (truth[i] as number);
    side[1] = (side[1] as number) + (ours[i] as number);
    side[2] = (side[2] as number) + 1;
  }
  const mean = (s: number[], k: number) => (s[k] as number) / (s[2] as number);
  return (mean(sums.on, 1) - mean(sums.off, 1)) / (mean(sums.on, 0) - mean(sums.off, 0));
}
