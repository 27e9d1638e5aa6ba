import onnxProto from 'onnx-proto';

/**
 * ISNet as shipped has its input fixed at 1024x1024, and every upsampling in its decoder (39 `Resize` nodes) was
 * exported with its target height and width folded into a constant. This declares the input's height and width
 * symbolic and rewrites those constants, so that at 1024 the model computes exactly what it did and at other sizes
 * (multiples of 64) it runs at that size: a small crop costs a fraction of a 1024 run (docs/select-object.md).
 *
 * - A decoder stage's upsampling (`_upsample_like(src, tar)` in the network's source, then joined with `tar`)
 *   always doubles at a multiple of 64 (isnet-side.ts). It becomes a constant x2 scale, which lets onnxruntime keep
 *   the map in its blocked channel layout through the upsampling instead of converting it out and back around each
 *   one (docs/models.md, "Speed").
 * - A side output is upsampled to the input's size, which it reads from the input's shape.
 */
const { onnx } = onnxProto;
type Graph = InstanceType<typeof onnx.GraphProto>;
type Node = Graph['node'][number];

/** A 1-D constant of int64s or floats. */
function tensor(name: string, values: BigInt64Array | Float32Array) {
  return onnx.TensorProto.create({
    name,
    dims: [values.length],
    dataType: values instanceof Float32Array ? onnx.TensorProto.DataType.FLOAT : onnx.TensorProto.DataType.INT64,
    rawData: new Uint8Array(values.buffer),
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
  const usersOf = (name: string): Node[] =>
    (consumers.get(name) ?? []).flatMap((n) => (n.opType === 'Cast' ? usersOf(n.output?.[0] as string) : [n]));

  graph.initializer.push(
    tensor('dynamic_size.start', new BigInt64Array([2n])),
    tensor('dynamic_size.end', new BigInt64Array([4n])),
    tensor('dynamic_size.double', new Float32Array([1, 1, 2, 2])),
  );
  const added: Node[] = [];
  const resizes = graph.node.filter((n) => n.opType === 'Resize');
  for (const [k, resize] of resizes.entries()) {
    const sizes = producer.get(resize.input?.[3] as string);
    if (sizes?.opType !== 'Concat' || sizes.input?.length !== 2) throw new Error('ISNet graph: unexpected Resize');
    // A decoder stage joins the upsampled map with one other of the size wanted; the side outputs are not joined
    // that way (only all six at the end), and are upsampled to the input's size.
    const joined = usersOf(resize.output?.[0] as string).some((u) => u.opType === 'Concat' && u.input?.length === 2);
    if (joined) {
      resize.input = [resize.input?.[0] as string, '', 'dynamic_size.double'];
      continue;
    }
    const shape = `dynamic_size.${k}.shape`;
    const hw = `dynamic_size.${k}.hw`;
    added.push(
      onnx.NodeProto.create({ opType: 'Shape', input: [input], output: [shape], name: shape }),
      onnx.NodeProto.create({
        opType: 'Slice',
        input: [shape, 'dynamic_size.start', 'dynamic_size.end'],
        output: [hw],
        name: hw,
      }),
    );
    (sizes.input as string[])[1] = hw;
  }
  graph.node = sorted(
    [...added, ...graph.node],
    [...graph.input.map((i) => i.name as string), ...graph.initializer.map((t) => t.name as string)],
  );
  // The folded sizes, and the doubling stages' size computations, are read by nothing now.
  prune(graph);
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
  graph.output = graph.output.slice(0, 1);
  prune(graph);
  return onnx.ModelProto.encode(model).finish();
}

/** Drops every node and weight that no graph output needs (the nodes in topological order). */
function prune(graph: Graph): void {
  const needed = new Set(graph.output.map((o) => o.name as string));
  const kept: Node[] = [];
  for (const n of [...graph.node].reverse()) {
    if (!(n.output ?? []).some((o) => needed.has(o))) continue;
    kept.push(n);
    for (const i of n.input ?? []) needed.add(i);
  }
  graph.node = kept.reverse();
  graph.initializer = graph.initializer.filter((t) => needed.has(t.name as string));
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
