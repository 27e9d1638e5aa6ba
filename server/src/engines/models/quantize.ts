import onnxProto from 'onnx-proto';

/**
 * Static int8 quantization of an fp32 ONNX model's convolutions, done by our own code (there is no quantizer for
 * Node): each chosen Conv becomes QuantizeLinear -> QLinearConv -> DequantizeLinear, with weights quantized
 * symmetrically per output channel (int8) and activations per tensor (uint8) from calibrated value ranges. On a
 * CPU with AVX-512 VNNI, onnxruntime's u8 x s8 convolutions run several times faster than fp32 ones.
 */
const { onnx } = onnxProto;
type Graph = InstanceType<typeof onnx.GraphProto>;
type Tensor = InstanceType<typeof onnx.TensorProto>;

/** Observed [min, max] of each named tensor over the calibration images. */
export type Ranges = Record<string, [number, number]>;

function floatData(t: Tensor): Float32Array {
  const raw = t.rawData as Uint8Array;
  return new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
}

function tensor(name: string, dims: number[], dataType: number, data: ArrayBufferView): Tensor {
  return onnx.TensorProto.create({
    name,
    dims,
    dataType,
    rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  });
}

/** uint8 affine parameters covering [min, max] (always including 0, so that zero padding is exact). */
function activationParams([min, max]: [number, number]): { scale: number; zeroPoint: number } {
  const lo = Math.min(0, min);
  const hi = Math.max(0, max);
  const scale = (hi - lo) / 255 || 1;
  return { scale, zeroPoint: Math.round(-lo / scale) };
}

/** The model with the named tensors added as graph outputs, for calibration runs. */
export function exposeTensors(bytes: Uint8Array, names: string[]): Uint8Array {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph as Graph;
  for (const name of names) {
    graph.output.push(
      onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT } } }),
    );
  }
  return onnx.ModelProto.encode(model).finish();
}

/** The input and output tensor names of the model's Conv nodes with at least `minInputChannels` input channels. */
export function convTensors(bytes: Uint8Array, minInputChannels: number): { input: string; output: string }[] {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph as Graph;
  const dims = new Map(graph.initializer.map((t) => [t.name, (t.dims as number[]).map(Number)]));
  return graph.node
    .filter((n) => n.opType === 'Conv' && (dims.get(n.input?.[1] as string)?.[1] ?? 0) >= minInputChannels)
    .map((n) => ({ input: n.input?.[0] as string, output: n.output?.[0] as string }));
}

/** Replaces every Conv whose input and output have calibrated ranges by its int8 equivalent. */
export function quantizeConvs(bytes: Uint8Array, ranges: Ranges): Uint8Array {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph as Graph;
  const inits = new Map(graph.initializer.map((t) => [t.name as string, t]));
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const nodes: typeof graph.node = [];
  const added: Tensor[] = [];
  const quantized = new Map<string, string>(); // float tensor -> its uint8 copy, shared by its consumers
  for (const node of graph.node) {
    const x = node.input?.[0] as string;
    const y = node.output?.[0] as string;
    const xRange = ranges[x];
    const yRange = ranges[y];
    if (node.opType !== 'Conv' || !xRange || !yRange) {
      nodes.push(node);
      continue;
    }
    const w = inits.get(node.input?.[1] as string) as Tensor;
    const [outC, inC, kh, kw] = (w.dims as number[]).map(Number) as [number, number, number, number];
    const weights = floatData(w);
    const per = inC * kh * kw;
    const wScale = new Float32Array(outC);
    const wq = new Int8Array(weights.length);
    for (let c = 0; c < outC; c++) {
      let m = 0;
      for (let i = c * per; i < (c + 1) * per; i++) m = Math.max(m, Math.abs(weights[i] as number));
      const s = m / 127 || 1;
      wScale[c] = s;
      for (let i = c * per; i < (c + 1) * per; i++) wq[i] = Math.round((weights[i] as number) / s);
    }
    const xp = activationParams(xRange);
    const yp = activationParams(yRange);
    const biasName = node.input?.[2];
    const bias = biasName ? floatData(inits.get(biasName) as Tensor) : new Float32Array(outC);
    const bq = Int32Array.from(bias, (b, c) => Math.round(b / (xp.scale * (wScale[c] as number))));
    added.push(
      tensor(`${y}.x_scale`, [], FLOAT, new Float32Array([xp.scale])),
      tensor(`${y}.x_zero`, [], onnx.TensorProto.DataType.UINT8, new Uint8Array([xp.zeroPoint])),
      tensor(`${y}.w_q`, [outC, inC, kh, kw], onnx.TensorProto.DataType.INT8, wq),
      tensor(`${y}.w_scale`, [outC], FLOAT, wScale),
      tensor(`${y}.w_zero`, [outC], onnx.TensorProto.DataType.INT8, new Int8Array(outC)),
      tensor(`${y}.y_scale`, [], FLOAT, new Float32Array([yp.scale])),
      tensor(`${y}.y_zero`, [], onnx.TensorProto.DataType.UINT8, new Uint8Array([yp.zeroPoint])),
      tensor(`${y}.b_q`, [outC], onnx.TensorProto.DataType.INT32, bq),
    );
    let xq = quantized.get(x);
    if (!xq) {
      xq = `${x}.q`;
      quantized.set(x, xq);
      nodes.push(
        onnx.NodeProto.create({
          opType: 'QuantizeLinear',
          input: [x, `${y}.x_scale`, `${y}.x_zero`],
          output: [xq],
          name: xq,
        }),
      );
    }
    nodes.push(
      onnx.NodeProto.create({
        opType: 'QLinearConv',
        input: [
          xq,
          `${y}.x_scale`,
          `${y}.x_zero`,
          `${y}.w_q`,
          `${y}.w_scale`,
          `${y}.w_zero`,
          `${y}.y_scale`,
          `${y}.y_zero`,
          `${y}.b_q`,
        ],
        output: [`${y}.q`],
        name: `${y}.qconv`,
        attribute: node.attribute,
      }),
      onnx.NodeProto.create({
        opType: 'DequantizeLinear',
        input: [`${y}.q`, `${y}.y_scale`, `${y}.y_zero`],
        output: [y],
        name: `${y}.dq`,
      }),
    );
  }
  const used = new Set(nodes.flatMap((n) => n.input ?? []));
  graph.node = nodes;
  graph.initializer = [...graph.initializer.filter((t) => used.has(t.name as string)), ...added];
  return onnx.ModelProto.encode(model).finish();
}

/**
 * Replaces each DequantizeLinear -> PRelu -> QuantizeLinear chain between two int8 convolutions by one 256-entry
 * lookup table per channel (onnxruntime's QLinearLeakyRelu, whose alpha may be any slope), on each channel's slice.
 * The tables give the same uint8 values as the float chain (both map each of the 256 input levels through the
 * same PReLU and rounding), in one byte-wide pass instead of three float ones, which took 58% of the int8 model's
 * time.
 */
export function lookupPrelus(bytes: Uint8Array): Uint8Array {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph as Graph;
  const inits = new Map(graph.initializer.map((t) => [t.name as string, t]));
  const producer = new Map(graph.node.map((n) => [n.output?.[0] as string, n]));
  const consumers = new Map<string, (typeof graph.node)[number][]>();
  for (const n of graph.node) for (const i of n.input ?? []) consumers.set(i, [...(consumers.get(i) ?? []), n]);
  const replaced = new Map<(typeof graph.node)[number], (typeof graph.node)[number][]>();
  for (const prelu of graph.node) {
    if (prelu.opType !== 'PRelu') continue;
    const dq = producer.get(prelu.input?.[0] as string);
    const next = consumers.get(prelu.output?.[0] as string) ?? [];
    const q = next[0];
    if (dq?.opType !== 'DequantizeLinear' || next.length !== 1 || q?.opType !== 'QuantizeLinear') continue;
    if ((consumers.get(dq.output?.[0] as string) ?? []).length !== 1) continue;
    const slopes = floatData(inits.get(prelu.input?.[1] as string) as Tensor);
    const [xq, xScale, xZero] = dq.input as string[];
    const [, yScale, yZero] = q.input as string[];
    const out = q.output?.[0] as string;
    const slices = Array.from(slopes, (_, c) => `${out}.c${c}`);
    replaced.set(dq, []);
    replaced.set(q, []);
    replaced.set(prelu, [
      onnx.NodeProto.create({
        opType: 'Split',
        input: [xq as string],
        output: slices.map((s) => `${s}.in`),
        name: `${out}.split`,
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 1 }],
      }),
      ...slices.map((s, c) =>
        onnx.NodeProto.create({
          opType: 'QLinearLeakyRelu',
          domain: 'com.microsoft',
          input: [`${s}.in`, xScale as string, xZero as string, yScale as string, yZero as string],
          output: [s],
          name: s,
          attribute: [{ name: 'alpha', type: onnx.AttributeProto.AttributeType.FLOAT, f: slopes[c] as number }],
        }),
      ),
      onnx.NodeProto.create({
        opType: 'Concat',
        input: slices,
        output: [out],
        name: `${out}.concat`,
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 1 }],
      }),
    ]);
  }
  if (replaced.size === 0) return bytes;
  graph.node = graph.node.flatMap((n) => replaced.get(n) ?? [n]);
  const used = new Set(graph.node.flatMap((n) => n.input ?? []));
  graph.initializer = graph.initializer.filter((t) => used.has(t.name as string));
  model.opsetImport.push({ domain: 'com.microsoft', version: 1 });
  // Without declared input and output shapes onnxruntime skips inferring shapes through every node when it opens
  // the session: with symbolic sizes, the ~2100 nodes of the tables took 3.4 s there, and 0.08 s without (the run
  // is the same, to the bit).
  for (const v of [...graph.input, ...graph.output]) if (v.type?.tensorType) v.type.tensorType.shape = null;
  return onnx.ModelProto.encode(model).finish();
}
