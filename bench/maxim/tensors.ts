/**
 * The MAXIM converter's tensors (convert.ts): the TF.js graph's types, and arithmetic on constant tensors, which
 * the converter evaluates itself (constant folding) rather than emitting as ONNX nodes.
 */

export type DType = 'float32' | 'int32' | 'bool';
export type Data = Float32Array | Int32Array | Uint8Array;

/** A tensor of the graph: its static shape and type, its value when constant, its ONNX name when computed. */
export interface Value {
  shape: number[];
  dtype: DType;
  data?: Data;
  onnxName?: string;
}

export interface TfAttr {
  s?: string;
  i?: string;
  b?: boolean;
  type?: string;
  list?: { i?: string[] };
}
export interface TfNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, TfAttr>;
}
export interface TfModel {
  modelTopology: { node: TfNode[] };
  weightsManifest: { paths: string[]; weights: { name: string; shape: number[]; dtype: string }[] }[];
}

export const size = (shape: number[]) => shape.reduce((a, b) => a * b, 1);
export const strides = (shape: number[]) => {
  const s = new Array<number>(shape.length).fill(1);
  for (let i = shape.length - 2; i >= 0; i--) s[i] = (s[i + 1] as number) * (shape[i + 1] as number);
  return s;
};
export const alloc = (dtype: DType, n: number): Data =>
  dtype === 'float32' ? new Float32Array(n) : dtype === 'int32' ? new Int32Array(n) : new Uint8Array(n);
export const tfType = (t: string | undefined): DType =>
  t === 'DT_FLOAT' ? 'float32' : t === 'DT_INT32' ? 'int32' : t === 'DT_BOOL' ? 'bool' : fail(`Unsupported type ${t}`);
export function fail(message: string): never {
  throw new Error(message);
}
export const b64 = (s: string | undefined) => Buffer.from(s ?? '', 'base64').toString();
export const ints = (a: TfAttr | undefined) => (a?.list?.i ?? []).map(Number);

export function broadcastShape(a: number[], b: number[]): number[] {
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

export function elementwise(vals: Value[], dtype: DType, f: (...x: number[]) => number): Value {
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

export function transposeData(v: Value, perm: number[]): Value {
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
export function resolveSlice(node: TfNode, inShape: number[], begin: number[], end: number[], step: number[]) {
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
