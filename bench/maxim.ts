/**
 * MAXIM models measured (issue 45): the @upscalerjs/maxim-* TF.js graph models converted to ONNX
 * (bench/maxim/convert.ts) and run on onnxruntime-node, each against what the product does today.
 * For each model: multiply-adds per 256x256 pass, the time of one pass, the time that puts on a 1024x1024 photo (16
 * such tiles, overlap not counted), and quality on a 256x256 case:
 * - denoising: the raccoon's fur (a held-out denoising case) with sigma-25 noise, PSNR and detail, against
 *   our denoising;
 * - deblurring: the same crop given a 9-px horizontal motion blur, PSNR against the sharp crop (we have no deblur);
 * - enhancement: the seeds photo at -2.5 EV (a held-out HDR case), brightness ratio and PSNR against the photo
 *   before darkening, against our HDR enhancement.
 * The packages are not dependencies (73-117 MB each): unpack them first, e.g.
 *   cd /tmp && for m in denoising deblurring enhancement; do npm pack @upscalerjs/maxim-$m && mkdir -p maxim-$m &&
 *     tar xzf upscalerjs-maxim-$m-0.1.0.tgz -C maxim-$m; done
 * Run: MAXIM_DIR=/tmp node --import tsx bench/maxim.ts   (MAXIM_ONLY=denoising,... to pick models)
 */
import path from 'node:path';
import { defaultParams, getOperation, type OperationId } from '@ai-editor/core';
import * as ort from 'onnxruntime-node';
import { loadLocalEngine } from '../server/src/engines/local-engines.js';
import type { RawImage } from '../server/src/engines/raster/image.js';
import { fromPng, recordingContext, toPng } from '../test-support/engine-ctx.js';
import { addGaussianNoise, luma, psnr } from '../test-support/metrics.js';
import { maximToOnnx } from './maxim/convert.js';
import { detailRatios } from './support/detail.js';
import { hdrInput, loadPhoto } from './support/quality-cases.js';
import { loadRepoPhoto } from './support/quality-cases-denoise-cartoon.js';

const SIDE = 256;
const dir = process.env.MAXIM_DIR ?? '/tmp';
const only = process.env.MAXIM_ONLY?.split(',');

function crop(img: RawImage, x: number, y: number): RawImage {
  const data = Buffer.alloc(SIDE * SIDE * 3);
  for (let r = 0; r < SIDE; r++) {
    for (let c = 0; c < SIDE; c++) {
      for (let k = 0; k < 3; k++)
        data[(r * SIDE + c) * 3 + k] = img.data[((y + r) * img.width + x + c) * img.channels + k] as number;
    }
  }
  return { data, width: SIDE, height: SIDE, channels: 3 };
}

function motionBlur(img: RawImage, length: number): RawImage {
  const data = Buffer.alloc(img.data.length);
  for (let r = 0; r < SIDE; r++) {
    for (let c = 0; c < SIDE; c++) {
      for (let k = 0; k < 3; k++) {
        let s = 0;
        for (let d = 0; d < length; d++) {
          const cc = Math.min(SIDE - 1, Math.max(0, c + d - (length >> 1)));
          s += img.data[(r * SIDE + cc) * 3 + k] as number;
        }
        data[(r * SIDE + c) * 3 + k] = Math.round(s / length);
      }
    }
  }
  return { ...img, data };
}

function detail(out: RawImage, clean: RawImage): string {
  const { texture, kept } = detailRatios(out, clean, undefined);
  return `texture ${texture.toFixed(2)}, kept ${kept.toFixed(2)}`;
}

const meanLuma = (img: RawImage) => luma(img).reduce((s, v) => s + v, 0) / (img.width * img.height);

async function ours(id: OperationId, img: RawImage): Promise<RawImage> {
  const engine = await loadLocalEngine(id);
  const { ctx } = recordingContext(2);
  const out = await engine.run(
    { operation: id, image: await toPng(img), params: defaultParams(getOperation(id)) },
    ctx,
  );
  await engine.release?.();
  return fromPng(out.images[0] as Buffer);
}

async function runMaxim(model: string, input: RawImage) {
  const t0 = performance.now();
  const { model: bytes, macs } = maximToOnnx(path.join(dir, `maxim-${model}/package/models`), SIDE, SIDE);
  const convertS = (performance.now() - t0) / 1000;
  const session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 2, graphOptimizationLevel: 'all' });
  const x = Float32Array.from(input.data, (v) => v / 255);
  const t1 = performance.now();
  const out = await session.run({ image: new ort.Tensor('float32', x, [1, SIDE, SIDE, 3]) });
  const passS = (performance.now() - t1) / 1000;
  await session.release();
  const y = (Object.values(out)[0] as ort.Tensor).data as Float32Array;
  const data = Buffer.from(Uint8Array.from(y, (v) => Math.max(0, Math.min(255, Math.round(v * 255)))));
  const image: RawImage = { data, width: SIDE, height: SIDE, channels: 3 };
  console.log(
    `${model}: ${(macs / 1e9).toFixed(0)} GMAC per ${SIDE}x${SIDE} pass; converted in ${convertS.toFixed(1)} s; one pass ${passS.toFixed(1)} s, so ~${(16 * passS).toFixed(0)} s at 1024x1024 (target <= 10 s)`,
  );
  return image;
}

const f = (v: number, d = 2) => v.toFixed(d);
const want = (m: string) => !only || only.includes(m);

const raccoon = crop(await loadRepoPhoto('bench/fill/photos/raccoon.jpg'), 20, 20);
if (want('denoising')) {
  const noisy = addGaussianNoise(raccoon, 25, 301);
  const m = await runMaxim('denoising', noisy);
  const o = await ours('denoising', noisy);
  console.log(
    `  raccoon fur, sigma 25: noisy ${f(psnr(noisy.data, raccoon.data))} dB; MAXIM ${f(psnr(m.data, raccoon.data))} dB, ${detail(m, raccoon)}; ours ${f(psnr(o.data, raccoon.data))} dB, ${detail(o, raccoon)}`,
  );
}
if (want('deblurring')) {
  const blurred = motionBlur(raccoon, 9);
  const m = await runMaxim('deblurring', blurred);
  console.log(
    `  raccoon fur, 9-px motion blur: blurred ${f(psnr(blurred.data, raccoon.data))} dB; MAXIM ${f(psnr(m.data, raccoon.data))} dB`,
  );
}
if (want('enhancement')) {
  const seeds = await loadPhoto('held-out/seeds.jpg');
  const truth = crop(seeds, (seeds.width - SIDE) >> 1, (seeds.height - SIDE) >> 1);
  const dark = hdrInput(truth, { name: 'seeds', photo: '', kind: 'underexposed', darken: { stops: 2.5 } });
  const m = await runMaxim('enhancement', dark);
  const o = await ours('hdr-enhancement', dark);
  const ref = meanLuma(truth);
  console.log(
    `  seeds -2.5 EV: brightness ratio to the photo before darkening ${f(meanLuma(dark) / ref)}; MAXIM ${f(meanLuma(m) / ref)}, ${f(psnr(m.data, truth.data), 1)} dB; ours ${f(meanLuma(o) / ref)}, ${f(psnr(o.data, truth.data), 1)} dB`,
  );
}
