/**
 * The ONNX graph the MAXIM converter (convert.ts) writes: its nodes and initializers, fresh names, and the
 * operations that become more than one ONNX node (concatenation, einsum, convolutions), with their multiply-adds.
 */

import onnxProto from 'onnx-proto';
import {
  alloc,
  b64,
  type Data,
  type DType,
  fail,
  ints,
  size,
  type TfNode,
  transposeData,
  type Value,
} from './tensors.js';

const { onnx } = onnxProto;

export const attrInts = (name: string, xs: number[]) => ({
  name,
  type: onnx.AttributeProto.AttributeType.INTS,
  ints: xs,
});
export const attrInt = (name: string, x: number) => ({ name, type: onnx.AttributeProto.AttributeType.INT, i: x });
export const computed = (name: string, shape: number[], dtype: DType): Value => ({ shape, dtype, onnxName: name });

export class OnnxGraph {
  readonly nodes: InstanceType<typeof onnx.NodeProto>[] = [];
  readonly initializers: InstanceType<typeof onnx.TensorProto>[] = [];
  /** Multiply-adds per pass of the convolutions and matrix products emitted so far. */
  macs = 0;
  private counter = 0;

  private fresh(base: string): string {
    return `${base}__${this.counter++}`;
  }

  private initializer(
    name: string,
    v: { shape: number[]; dtype: DType | 'int64'; data: Data | BigInt64Array },
  ): string {
    const dataType = {
      float32: onnx.TensorProto.DataType.FLOAT,
      int32: onnx.TensorProto.DataType.INT32,
      bool: onnx.TensorProto.DataType.BOOL,
      int64: onnx.TensorProto.DataType.INT64,
    }[v.dtype];
    this.initializers.push(
      onnx.TensorProto.create({
        name,
        dims: v.shape,
        dataType,
        rawData: new Uint8Array(v.data.buffer, v.data.byteOffset, v.data.byteLength),
      }),
    );
    return name;
  }

  /** A constant int64 vector (shapes, axes, slice bounds), as ONNX takes them. */
  i64(xs: number[]): string {
    return this.initializer(this.fresh('i64'), {
      shape: [xs.length],
      dtype: 'int64',
      data: BigInt64Array.from(xs.map(BigInt)),
    });
  }

  /** The ONNX name of a value, making a constant an initializer the first time a node needs it. */
  ref(v: Value): string {
    if (!v.onnxName) v.onnxName = this.initializer(this.fresh('const'), v as Required<Value>);
    return v.onnxName;
  }

  /** A node of `opType` with one output, whose name it returns. */
  emit(opType: string, inputs: string[], attribute: object[] = [], base = opType): string {
    const out = this.fresh(base);
    this.nodes.push(onnx.NodeProto.create({ opType, input: inputs, output: [out], name: out, attribute }));
    return out;
  }

  /** ConcatV2 and Pack: folded when every part is constant. */
  concat(vals: Value[], axis: number): Value {
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
    return computed(
      this.emit(
        'Concat',
        vals.map((v) => this.ref(v)),
        [attrInt('axis', axis)],
      ),
      shape,
      (vals[0] as Value).dtype,
    );
  }

  /** Einsums of one operand by a weight matrix become MatMuls (with the transposes they need). */
  einsum(equation: string, x: Value, y: Value): Value {
    const [lhs, out] = equation.split('->') as [string, string];
    const [p, q] = lhs.split(',') as [string, string];
    const shapeOf = (labels: string) =>
      [...labels].map((l) => {
        const i = p.indexOf(l);
        return i >= 0 ? (x.shape[i] as number) : (y.shape[q.indexOf(l)] as number);
      });
    const outShape = shapeOf(out);
    this.macs += size(outShape) * (x.shape[p.indexOf([...p].find((l) => !out.includes(l)) as string)] as number);
    // The contracted label is the one not in the output; the matrix operand is the 2-d one.
    const [data, dl, mat, ml] = q.length === 2 ? [x, p, y, q] : [y, q, x, p];
    const k = [...ml].find((l) => !out.includes(l)) as string;
    const kept = [...ml].find((l) => l !== k) as string;
    // data laid out with k last, then MatMul by the matrix as [k, kept].
    const rest = [...dl].filter((l) => l !== k);
    const perm = [...rest, k].map((l) => dl.indexOf(l));
    let v = this.ref(data);
    if (perm.some((pp, i) => pp !== i)) v = this.emit('Transpose', [v], [attrInts('perm', perm)]);
    const matrix = ml[0] === k ? mat : transposeData(mat, [1, 0]);
    const product = this.emit('MatMul', [v, this.ref(matrix)]);
    const labels = [...rest, kept];
    const outPerm = [...out].map((l) => labels.indexOf(l));
    const result = outPerm.some((pp, i) => pp !== i)
      ? this.emit('Transpose', [product], [attrInts('perm', outPerm)])
      : product;
    return computed(result, outShape, 'float32');
  }

  private toNchw(v: Value): string {
    return this.emit('Transpose', [this.ref(v)], [attrInts('perm', [0, 3, 1, 2])]);
  }

  private toNhwc(name: string): string {
    return this.emit('Transpose', [name], [attrInts('perm', [0, 2, 3, 1])]);
  }

  /** Conv2D (NHWC, TF padding) as an ONNX Conv (NCHW) between two transposes. */
  conv(node: TfNode, x: Value, filter: Value): Value {
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
    const out = this.emit(
      'Conv',
      [this.toNchw(x), this.ref(weight)],
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
    this.macs += oh0 * ow * outC * kh * kw * inC;
    return computed(this.toNhwc(out), [1, oh0, ow, outC], 'float32');
  }

  /** Conv2DBackpropInput (VALID padding only) as an ONNX ConvTranspose, cropped to the size TF asks for. */
  convTranspose(node: TfNode, sizes: number[], filter: Value, x: Value): Value {
    const a = node.attr ?? {};
    const [kh, kw, outC] = filter.shape as [number, number, number, number];
    const [sh, sw] = ints(a.strides).slice(1, 3) as [number, number];
    if (b64(a.padding?.s) !== 'VALID') fail(`${node.name}: only VALID transposed convolutions`);
    const [, h, w] = x.shape as [number, number, number, number];
    const oh = (h - 1) * sh + kh;
    const ow = (w - 1) * sw + kw;
    const [th, tw] = [sizes[1] as number, sizes[2] as number];
    if (th > oh || tw > ow) fail(`${node.name}: output size ${th}x${tw} beyond ${oh}x${ow}`);
    this.macs += h * w * kh * kw * outC * (filter.shape[3] as number);
    const weight = transposeData(filter, [3, 2, 0, 1]);
    const out = this.emit(
      'ConvTranspose',
      [this.toNchw(x), this.ref(weight)],
      [attrInts('kernel_shape', [kh, kw]), attrInts('strides', [sh, sw]), attrInts('pads', [0, 0, oh - th, ow - tw])],
    );
    return computed(this.toNhwc(out), [1, th, tw, outC], 'float32');
  }
}
