import onnxProto from 'onnx-proto';

/**
 * ISNet as shipped has its input fixed at 1024x1024, and every upsampling in its decoder (39 `Resize` nodes) was
 * exported with its target height and width folded into a constant. This rewrites each of those constants as the
 * height and width of the tensor the upsampled map is joined with (the `_upsample_like(src, tar)` of the network's
 * source), or of the input for the side outputs, and declares the input's height and width symbolic. At 1024 the
 * model computes exactly what it did; at other sizes (multiples of 32) it runs at that size, so a small crop costs
 * a fraction of a 1024 run (docs/select-object.md).
 */
const { onnx } = onnxProto;
type Graph = InstanceType<typeof onnx.GraphProto>;
type Node = Graph['node'][number];

const INT64 = onnx.TensorProto.DataType.INT64;

function int64s(name: string, values: number[]) {
  const data = new BigInt64Array(values.map(BigInt));
  return onnx.TensorProto.create({
    name,
    dims: [values.length],
    dataType: INT64,
    rawData: new Uint8Array(data.buffer),
  });
}

/** Topological order: the new Shape/Slice nodes must come before the size `Concat`s that now read them. */
function sorted(nodes: Node[], available: string[]): Node[] {
  const ready = new Set(['', ...available]);
  const out: Node[] = [];
  let pending = nodes;
  while (pending.length > 0) {
    const next = pending.filter((n) => !(n.input ?? []).every((i) => ready.has(i)));
    if (next.length === pending.length) throw new Error('ISNet graph: cannot order its nodes');
    for (const n of pending) {
      if (next.includes(n)) continue;
      out.push(n);
      for (const o of n.output ?? []) ready.add(o);
    }
    pending = next;
  }
  return out;
}

/** The model with a symbolic input size (see above). Throws if the graph is not shaped as expected. */
export function withDynamicSize(bytes: Uint8Array): Uint8Array {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph as Graph;
  const input = graph.input[0]?.name as string;
  const producer = new Map(graph.node.map((n) => [n.output?.[0] as string, n]));
  const consumers = new Map<string, Node[]>();
  for (const n of graph.node) for (const i of n.input ?? []) consumers.set(i, [...(consumers.get(i) ?? []), n]);
  // The fp16 model wraps its Resizes in Casts: look through them.
  const usersOf = (name: string): { node: Node; via: string }[] =>
    (consumers.get(name) ?? []).flatMap((n) =>
      n.opType === 'Cast' ? usersOf(n.output?.[0] as string) : [{ node: n, via: name }],
    );
  const uncast = (name: string): string => {
    const p = producer.get(name);
    return p?.opType === 'Cast' ? uncast(p.input?.[0] as string) : name;
  };

  graph.initializer.push(int64s('dynamic_size.start', [2]), int64s('dynamic_size.end', [4]));
  const added: Node[] = [];
  const resizes = graph.node.filter((n) => n.opType === 'Resize');
  for (const [k, resize] of resizes.entries()) {
    const sizes = producer.get(resize.input?.[3] as string);
    if (sizes?.opType !== 'Concat' || sizes.input?.length !== 2) throw new Error('ISNet graph: unexpected Resize');
    // A decoder stage joins the upsampled map with one other of the size wanted; the side outputs are not joined
    // that way (only all six at the end), and are upsampled to the input's size.
    const join = usersOf(resize.output?.[0] as string).find(
      (u) => u.node.opType === 'Concat' && u.node.input?.length === 2,
    );
    const other = join?.node.input?.find((i) => i !== join.via);
    const target = other ? uncast(other) : input;
    const shape = `dynamic_size.${k}.shape`;
    const hw = `dynamic_size.${k}.hw`;
    added.push(
      onnx.NodeProto.create({ opType: 'Shape', input: [target], output: [shape], name: shape }),
      onnx.NodeProto.create({
        opType: 'Slice',
        input: [shape, 'dynamic_size.start', 'dynamic_size.end'],
        output: [hw],
        name: hw,
      }),
    );
    (sizes.input as string[])[1] = hw;
  }
  // The folded sizes are read by nothing now.
  const read = new Set(graph.node.flatMap((n) => n.input ?? []));
  const kept = graph.node.filter((n) => n.opType !== 'Constant' || read.has(n.output?.[0] as string));
  graph.node = sorted(
    [...added, ...kept],
    [...graph.input.map((i) => i.name as string), ...graph.initializer.map((t) => t.name as string)],
  );
  for (const value of [graph.input[0], ...graph.output]) {
    const dims = value?.type?.tensorType?.shape?.dim;
    if (dims?.length !== 4) continue;
    dims[2] = onnx.TensorShapeProto.Dimension.create({ dimParam: 'height' });
    dims[3] = onnx.TensorShapeProto.Dimension.create({ dimParam: 'width' });
  }
  // The recorded intermediate shapes were for 1024 only.
  graph.valueInfo = [];
  return onnx.ModelProto.encode(model).finish();
}

/**
 * The model with only its first output (the mask): ISNet as shipped also returns its five side outputs (each a
 * convolution, an upsampling to the input's size, a sigmoid and fp16 casts) and six decoder feature maps, which
 * only training reads. ONNX Runtime computes every graph output, and copies each one out, so they are dropped here
 * with every node and weight that only they read. The mask is computed by the same nodes as before.
 */
export function withMaskOnly(bytes: Uint8Array): Uint8Array {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph as Graph;
  const mask = graph.output[0]?.name as string;
  const needed = new Set([mask]);
  const kept: Node[] = [];
  for (const n of [...graph.node].reverse()) {
    if (!(n.output ?? []).some((o) => needed.has(o))) continue;
    kept.push(n);
    for (const i of n.input ?? []) needed.add(i);
  }
  graph.node = kept.reverse();
  graph.output = graph.output.filter((o) => o.name === mask);
  graph.initializer = graph.initializer.filter((t) => needed.has(t.name as string));
  return onnx.ModelProto.encode(model).finish();
}

const FLOAT16 = onnx.TensorProto.DataType.FLOAT16;
const FLOAT = onnx.TensorProto.DataType.FLOAT;

/** An IEEE half-precision value from its 16 bits. */
function fromHalf(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 31) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

function widened(t: Parameters<typeof onnx.TensorProto.encode>[0]): void {
  if (t.dataType !== FLOAT16) return;
  const raw = t.rawData as Uint8Array;
  const halves = raw?.length
    ? new Uint16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength))
    : Uint16Array.from(t.int32Data as number[]);
  t.dataType = FLOAT;
  t.int32Data = [];
  t.rawData = new Uint8Array(Float32Array.from(halves, fromHalf).buffer);
}

/**
 * The model in fp32: ISNet ships with fp16 weights and casts around each upsampling, which onnxruntime's CPU
 * kernels run in fp32 anyway, with casts inserted around every convolution. Widening the weights once gives the
 * same mask (within one 8-bit level) without those casts (docs/models.md, "Speed").
 */
export function withFloat32(bytes: Uint8Array): Uint8Array {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph as Graph;
  for (const t of graph.initializer) widened(t);
  for (const node of graph.node) {
    for (const a of node.attribute ?? []) {
      if (a.t) widened(a.t);
      // A cast to fp16 becomes a cast to fp32 of an fp32 tensor, which onnxruntime removes.
      if (node.opType === 'Cast' && a.name === 'to' && Number(a.i) === FLOAT16) a.i = FLOAT;
    }
  }
  for (const value of [...graph.input, ...graph.output]) {
    const type = value.type?.tensorType;
    if (type?.elemType === FLOAT16) type.elemType = FLOAT;
  }
  return onnx.ModelProto.encode(model).finish();
}
