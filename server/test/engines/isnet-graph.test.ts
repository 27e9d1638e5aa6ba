/**
 * ISNet with a symbolic input size and its mask as its only output (engines/models/isnet-graph.ts), as the engines
 * run it: at 1024 it must compute exactly what the shipped model does (background removal and segmentation use it
 * there, docs/models.md "Background removal: speed and soft edges"), and at a crop's own size it must run and still
 * find the subject. Widened to fp32 it must give the same mask.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { fixturePixels } from '../../../test-support/engine-ctx.js';
import { isnetFp32, isnetModelPath, shippedIsnet } from '../../src/engines/models/isnet.js';
import { withDynamicSize, withMaskOnly } from '../../src/engines/models/isnet-graph.js';
import { modelCacheDir, setModelCacheDir } from '../../src/engines/models/model-cache.js';

const options = { graphOptimizationLevel: 'all', enableCpuMemArena: false, intraOpNumThreads: 2 } as const;

async function run(model: ort.InferenceSession, name: string, side: number): Promise<Float32Array> {
  const img = await fixturePixels(name, { width: side, height: side });
  const plane = side * side;
  const x = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++)
    for (let c = 0; c < 3; c++) x[c * plane + i] = ((img.data[i * 3 + c] as number) - 128) / 256;
  const out = await model.run({ [model.inputNames[0] as string]: new ort.Tensor('float32', x, [1, 3, side, side]) });
  const mask = out[model.outputNames[0] as string] as ort.Tensor;
  expect(mask.dims).toEqual([1, 1, side, side]);
  return mask.data as Float32Array;
}

describe('ISNet with a symbolic input size', () => {
  it('gives the shipped model’s mask at 1024, and runs at a crop’s own size (576) where the shipped one cannot', async () => {
    const shipped = shippedIsnet();
    const before = await ort.InferenceSession.create(shipped, options);
    const after = await ort.InferenceSession.create(withMaskOnly(withDynamicSize(shipped)), options);
    expect(before.outputNames).toHaveLength(12);
    expect(after.outputNames).toEqual([before.outputNames[0]]);

    const a = await run(before, 'coffee.png', 1024);
    const b = await run(after, 'coffee.png', 1024);
    let most = 0;
    for (let i = 0; i < a.length; i++) most = Math.max(most, Math.abs((a[i] as number) - (b[i] as number)));
    // The same network; only the order of a few float sums may differ (0.00025 seen: a 16th of one 8-bit level).
    expect(most).toBeLessThan(0.001);
    await expect(run(before, 'coffee.png', 576)).rejects.toThrow();

    // At 576 the cup is still found: its centre is salient, the photo's corner is not.
    const small = await run(after, 'coffee.png', 576);
    const at = (x: number, y: number) => small[Math.round(y * 576) * 576 + Math.round(x * 576)] as number;
    expect(at(0.5, 0.5)).toBeGreaterThan(0.9);
    expect(at(0.02, 0.02)).toBeLessThan(0.1);
    await before.release();
    await after.release();
  }, 120_000);

  it('in fp32 gives the shipped fp16 model’s mask within an 8-bit level', async () => {
    const fp16 = await ort.InferenceSession.create(withMaskOnly(withDynamicSize(shippedIsnet())), options);
    const fp32 = await ort.InferenceSession.create(isnetFp32(), options);
    const a = await run(fp16, 'astronaut.png', 1024);
    const b = await run(fp32, 'astronaut.png', 1024);
    let most = 0;
    for (let i = 0; i < a.length; i++) most = Math.max(most, Math.abs((a[i] as number) - (b[i] as number)));
    expect(most).toBeLessThan(1 / 255);
    await fp16.release();
    await fp32.release();
  }, 120_000);

  it('replaces the file of an earlier rewrite on disk, and leaves other models alone', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'isnet-cache-'));
    const before = modelCacheDir();
    setModelCacheDir(dir);
    try {
      for (const f of [
        'isnet-medium-dynamic.onnx',
        'isnet-medium-dynamic-v2.onnx',
        'isnet-medium-fp32-v3.onnx',
        'realesrgan-x4.onnx',
      ])
        fs.writeFileSync(path.join(dir, f), 'old');
      const file = isnetModelPath();
      expect(fs.readdirSync(dir).sort()).toEqual(['isnet-medium-fp32-v4.onnx', 'realesrgan-x4.onnx']);
      expect(fs.statSync(file).size).toBeGreaterThan(100e6);
    } finally {
      setModelCacheDir(before);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
