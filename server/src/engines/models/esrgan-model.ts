/**
 * The Real-ESRGAN model as the engines run it: converted (esrgan-convert.ts), quantized (quantize.ts) and cached
 * under the model cache folder, and its onnxruntime sessions, one per output scale.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import * as ort from 'onnxruntime-node';
import { halfScaleHead, ncnnToOnnx, readNcnn } from './esrgan-convert.js';
import { cachedModel } from './model-cache.js';
import { lookupPrelus, quantizeConvs, type Ranges } from './quantize.js';

export const ESRGAN_SCALE = 4;
/** Bump when the conversion changes, so a stale cached file is not reused. */
const CONVERTER_VERSION = 4;
/** Calibrated activation ranges for the int8 model (written by scripts/calibrate-esrgan.ts). */
const RANGES_FILE = new URL('./esrgan-int8-ranges.json', import.meta.url);
/** Convolutions with at least this many input channels run in int8 (all but the first, which sees the photo). */
export const ESRGAN_QUANTIZED_MIN_CHANNELS = 64;

/** Output scales the network is prepared for: its own 4x, and 2x (`halfScaleHead`). */
export type EsrganScale = 2 | 4;

/**
 * Converts the shipped model to `<modelCacheDir>/realesrgan-x4fast-x<scale>-int8-<hash>.onnx` once (write temp,
 * rename): convolutions in int8, the PReLUs between them as lookup tables (quantize.ts).
 */
export function esrganModelPath(scale: EsrganScale = ESRGAN_SCALE): string {
  const { param, bin } = readNcnn();
  const ranges = JSON.parse(fs.readFileSync(RANGES_FILE, 'utf8')).ranges as Ranges;
  const hash = crypto
    .createHash('sha256')
    .update(`v${CONVERTER_VERSION}\n`)
    .update(param)
    .update(bin)
    .update(JSON.stringify(ranges));
  const file = `realesrgan-x4fast-x${scale}-int8-${hash.digest('hex').slice(0, 12)}.onnx`;
  return cachedModel(`Real-ESRGAN ${scale}x`, file, () => {
    const fp32 = ncnnToOnnx(param, bin);
    // The 2x head's output keeps the 4x head's tensor name, and its values (averages) stay within its range.
    return lookupPrelus(quantizeConvs(scale === 2 ? halfScaleHead(fp32) : fp32, ranges));
  });
}

const sessions = new Map<EsrganScale, Promise<ort.InferenceSession>>();

export function getSession(threads: number, scale: EsrganScale): Promise<ort.InferenceSession> {
  let session = sessions.get(scale);
  if (!session) {
    // With the CPU arena, the float tensors (the input, the first convolution's output, the head) are reused
    // instead of freshly allocated and page-faulted for every tile: x2 of 1024 px took 10.8-12.6 s of CPU instead
    // of 12.7-15.3 s, for ~0.4 GB more peak memory per session (bench:engines, both scales: 1.29 vs 0.82 GB).
    // 'extended', not 'all': at 'all' onnxruntime moves the int8 convolutions to channels-last, where splitting
    // the channels for the PReLU tables becomes a strided copy costing more than the tables save.
    session = ort.InferenceSession.create(esrganModelPath(scale), {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      enableCpuMemArena: true,
      graphOptimizationLevel: 'extended',
    });
    sessions.set(scale, session);
  }
  return session;
}

export async function releaseEsrgan(): Promise<void> {
  const open = [...sessions.values()];
  sessions.clear();
  for (const s of open) await (await s).release();
}
