import { checkOutputSize } from '@ai-editor/core';
import sharp from 'sharp';
import { warmEsrgan } from '../models/esrgan.js';
import { releaseEsrgan } from '../models/esrgan-model.js';
import { detectFaces, type Face, type Point, releaseFaces, warmFaces } from '../models/faces.js';
import { cropRaw, type Rect } from '../raster/geometry.js';
import { guidedFilter } from '../raster/guided-filter.js';
import { decode, encodePng, type RawImage } from '../raster/image.js';
import { resizeRaw } from '../raster/resize.js';
import type { EngineContext, EngineOutput, Job } from '../types.js';
import { esrganRestore } from './esrgan-restore.js';

/**
 * Face enhancement. No face-restoration network (GFPGAN/CodeFormer class) ships on npm, so each face found by
 * human's detector is restored with Real-ESRGAN (blur, noise and JPEG artefacts; see esrganRestore), its skin
 * smoothed a little with an edge-preserving filter that spares eyes, brows and lips, and the result feathered back
 * into the photo. Everything outside the faces' regions is the original (or its Lanczos 2x enlargement).
 */

/** The network's input budget (2-core CPU time, fp32) per face (~0.6 s) and for a whole photo without faces (~5 s). */
const FACE_MODEL_PIXELS = 256 * 256;
const PHOTO_MODEL_PIXELS = 384 * 384;
/** The restored region around a face box, and the feathered ellipse blended back inside it. */
const REGION_SCALE = 1.6;
const SKIN_SMOOTHING = 0.45;
/** Share of the network's restoration kept (see esrganRestore). */
const RESTORE_STRENGTH = 0.5;
export const NO_FACE_NOTE = 'No face found: general enhancement applied';

/** Renders SVG shapes to a one-channel mask (0..1), blurred by `feather` px. */
async function svgMask(width: number, height: number, shapes: string, feather: number): Promise<Float32Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="black"/>${shapes}</svg>`;
  let p = sharp(Buffer.from(svg)).flatten({ background: '#000000' }).greyscale();
  if (feather >= 0.3) p = p.blur(feather);
  const data = await p.extractChannel(0).raw().toBuffer();
  const out = new Float32Array(width * height);
  for (let i = 0; i < out.length; i++) out[i] = (data[i] as number) / 255;
  return out;
}

const polygon = (pts: Point[], fill: string, stroke = 0) =>
  `<polygon points="${pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')}" fill="${fill}"` +
  (stroke ? ` stroke="${fill}" stroke-width="${stroke.toFixed(1)}" stroke-linejoin="round"/>` : '/>');

/** Self-guided filter (He et al. 2010) of each channel: smooths flat areas like skin, keeps strong edges. */
function guidedChannels(img: RawImage, r: number, eps: number): Float32Array[] {
  const { width: w, height: h, channels: c } = img;
  const out: Float32Array[] = [];
  for (let k = 0; k < 3; k++) {
    const p = new Float32Array(w * h);
    for (let i = 0; i < p.length; i++) p[i] = img.data[i * c + k] as number;
    out.push(guidedFilter(p, w, h, r, eps));
  }
  return out;
}

/** Where a face's region lies in the source photo: its box enlarged REGION_SCALE times, inside the photo. */
function regionOf(face: Face, width: number, height: number): Rect {
  const [bx, by, bw, bh] = face.box;
  const cx = bx + bw / 2;
  const cy = by + bh / 2;
  const x0 = Math.max(0, Math.floor(cx - (bw * REGION_SCALE) / 2));
  const y0 = Math.max(0, Math.floor(cy - (bh * REGION_SCALE) / 2));
  const x1 = Math.min(width, Math.ceil(cx + (bw * REGION_SCALE) / 2));
  const y1 = Math.min(height, Math.ceil(cy + (bh * REGION_SCALE) / 2));
  return { left: x0, top: y0, width: x1 - x0, height: y1 - y0 };
}

/** Restores one face's region and returns it with its blend weights, at the output scale. */
async function enhanceFace(photo: RawImage, face: Face, scale: number, ctx: EngineContext, onTile: () => void) {
  const region = regionOf(face, photo.width, photo.height);
  const w = region.width * scale;
  const h = region.height * scale;
  const { image, blur } = await esrganRestore(cropRaw(photo, region), w, h, {
    threads: ctx.threads,
    signal: ctx.signal,
    maxModelPixels: FACE_MODEL_PIXELS,
    strength: RESTORE_STRENGTH,
    onTile,
  });
  // Face coordinates in the region, at the output scale.
  const local = (pts: Point[]): Point[] => pts.map(([x, y]) => [(x - region.left) * scale, (y - region.top) * scale]);
  const [bx, by, bw, bh] = face.box;
  const size = Math.min(bw, bh) * scale;

  if (face.outline.length >= 3) {
    // Gentle smoothing on the skin: the face outline minus the (widened) eyes, brows and lips.
    const spare = face.features.map((f) => polygon(local(f), 'black', size * 0.06)).join('');
    const skin = await svgMask(w, h, polygon(local(face.outline), 'white') + spare, size * 0.02);
    const smooth = guidedChannels(image, Math.max(2, Math.round(size * 0.02)), (0.04 * 255) ** 2);
    for (let i = 0; i < w * h; i++) {
      const a = SKIN_SMOOTHING * (skin[i] as number);
      if (a === 0) continue;
      for (let k = 0; k < 3; k++) {
        const v = image.data[i * 3 + k] as number;
        image.data[i * 3 + k] = Math.round(v + a * ((smooth[k]?.[i] as number) - v));
      }
    }
  }
  // Blend weights: an ellipse around the box, feathered, and zero at the region's edge.
  const cx = (bx + bw / 2 - region.left) * scale;
  const cy = (by + bh / 2 - region.top) * scale;
  // The box is already 1.4x the face; with the blur's 3 sigma the weights end inside the region (0.8x the box).
  const ellipse = `<ellipse cx="${cx}" cy="${cy}" rx="${(bw * scale) / 2}" ry="${(bh * scale) / 2}" fill="white"/>`;
  const weight = await svgMask(w, h, ellipse, size * 0.06);
  return { region, image, weight, blur };
}

/**
 * Restores every face of the photo (or, without one, the whole photo; metadata.note says so) and enlarges it by the
 * job's scale.
 */
export async function enhanceFaces(input: Job<'face-enhancement'>, ctx: EngineContext): Promise<EngineOutput> {
  const scale = Number(input.params.scale);
  const photo = await decode(input.image);
  // Refused at submit already; checked again here for jobs queued before the limit was lowered.
  checkOutputSize('face-enhancement', input.params, photo, ctx.maxOutputPixels);
  ctx.progress({ stage: 'Finding faces', percent: 5 });
  const faces = await detectFaces(photo);
  ctx.signal.throwIfAborted();
  const width = photo.width * scale;
  const height = photo.height * scale;

  if (faces.length === 0) {
    ctx.progress({ stage: 'Enhancing the photo', percent: 15 });
    let tiles = 0;
    const { image, blur } = await esrganRestore(photo, width, height, {
      threads: ctx.threads,
      signal: ctx.signal,
      maxModelPixels: PHOTO_MODEL_PIXELS,
      strength: RESTORE_STRENGTH,
      onTile: (done, total) => {
        tiles = total;
        ctx.progress({ stage: 'Enhancing the photo', percent: Math.round(15 + (80 * done) / total) });
      },
    });
    return {
      images: [await encodePng(image)],
      metadata: { faces: [], note: NO_FACE_NOTE, scale, width, height, tiles, blur: round2(blur) },
    };
  }

  const out = scale === 1 ? { ...photo, data: Buffer.from(photo.data) } : await resizeRaw(photo, width, height);
  const report: { x: number; y: number; width: number; height: number; score: number; blur: number }[] = [];
  for (const [n, face] of faces.entries()) {
    const stage = `Enhancing face ${n + 1} of ${faces.length}`;
    ctx.progress({ stage, percent: Math.round(15 + (75 * n) / faces.length) });
    const { region, image, weight, blur } = await enhanceFace(photo, face, scale, ctx, () =>
      ctx.progress({ stage, percent: Math.round(15 + (75 * (n + 0.8)) / faces.length) }),
    );
    // Feathered blend into the output; outside the ellipse the weight is 0 and the photo stays as it was.
    const x0 = region.left * scale;
    const y0 = region.top * scale;
    for (let y = 0; y < image.height; y++) {
      for (let x = 0; x < image.width; x++) {
        const a = weight[y * image.width + x] as number;
        if (a === 0) continue;
        const o = ((y0 + y) * width + x0 + x) * 3;
        const i = (y * image.width + x) * 3;
        for (let k = 0; k < 3; k++) {
          const v = out.data[o + k] as number;
          out.data[o + k] = Math.round(v + a * ((image.data[i + k] as number) - v));
        }
      }
    }
    const [bx, by, bw, bh] = face.box;
    report.push({
      x: bx * scale,
      y: by * scale,
      width: bw * scale,
      height: bh * scale,
      score: face.score,
      blur: round2(blur),
    });
  }
  ctx.progress({ stage: 'Finishing', percent: 95 });
  return { images: [await encodePng(out)], metadata: { faces: report, scale, width, height } };
}

/** Loads the face detector and Real-ESRGAN ahead of the first job. */
export async function warmFaceEnhancement({ threads }: { threads: number }): Promise<void> {
  await warmFaces();
  await warmEsrgan(threads);
}

export async function releaseFaceEnhancement(): Promise<void> {
  await Promise.all([releaseEsrgan(), releaseFaces()]);
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
