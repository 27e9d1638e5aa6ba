import { checkOutputSize } from '@ai-editor/core';
import sharp from 'sharp';
import { defineEngine } from '../define.js';
import { esrganUpscale, warmEsrgan } from '../models/esrgan.js';
import { releaseEsrgan } from '../models/esrgan-model.js';
import { decode, encodePng } from '../raster/image.js';

/**
 * Super-resolution with Real-ESRGAN general-x4v3 in overlapping tiles. The network is 4x only; for 2x its last
 * convolution carries a folded 2x2 average (a second prepared model, models/esrgan-convert.ts), so no 4x image is ever made
 * (docs/models.md). Transparency, if any, is resized with Lanczos.
 */
export default defineEngine('super-resolution', {
  async run(input, ctx) {
    const scale = Number(input.params.scale);
    const photo = await decode(input.image, { alpha: true });
    // Refused at submit already; checked again here for jobs queued before the limit was lowered.
    checkOutputSize('super-resolution', input.params, photo, ctx.maxOutputPixels);
    const width = photo.width * scale;
    const height = photo.height * scale;
    ctx.progress({ stage: 'Upscaling', percent: 5 });
    const rgb = await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 4 } })
      .removeAlpha()
      .raw()
      .toBuffer();
    let tiles = 0;
    const up = await esrganUpscale(
      { data: rgb, width: photo.width, height: photo.height, channels: 3 },
      {
        threads: ctx.threads,
        signal: ctx.signal,
        outScale: scale === 2 ? 2 : 4,
        onTile: (done, total) => {
          tiles = total;
          ctx.progress({ stage: `Upscaling tile ${done} of ${total}`, percent: Math.round(5 + (85 * done) / total) });
        },
      },
    );
    ctx.progress({ stage: 'Finishing', percent: 92 });
    let data = up.data;
    let channels: 3 | 4 = 3;
    if (hasTransparency(photo.data)) {
      const alpha = await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 4 } })
        .extractChannel(3)
        .resize(width, height, { kernel: 'lanczos3' })
        .raw()
        .toBuffer();
      data = await sharp(data, { raw: { width, height, channels: 3 } })
        .joinChannel(alpha, { raw: { width, height, channels: 1 } })
        .raw()
        .toBuffer();
      channels = 4;
    }
    const png = await encodePng({ data, width, height, channels });
    return {
      images: [png],
      metadata: { model: 'Real-ESRGAN general-x4v3', scale, width, height, tiles },
    };
  },
  warm: ({ threads }) => warmEsrgan(threads, [2, 4]),
  release: releaseEsrgan,
});

function hasTransparency(rgba: Buffer): boolean {
  for (let i = 3; i < rgba.length; i += 4) if ((rgba[i] as number) < 255) return true;
  return false;
}
