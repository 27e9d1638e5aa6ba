import { defineEngine } from '../define.js';
import { releaseIsnet, salientMask, warmIsnet } from '../models/isnet.js';
import { estimateForeground } from '../raster/foreground.js';
import { decode, encodePng } from '../raster/image.js';

/**
 * Background removal: ISNet's subject mask becomes the alpha channel of the photo, at the photo's own size. At the
 * soft edge (hair, fur) the colour is the subject's own, estimated without the old background mixed in
 * (shared/foreground.ts), so that the cut-out on a new background shows no fringe of the old one.
 */
export default defineEngine('background-removal', {
  async run(input, ctx) {
    ctx.progress({ stage: 'Finding the subject', percent: 10 });
    const photo = await decode(input.image);
    const mask = await salientMask(photo, ctx.threads);
    ctx.progress({ stage: 'Cutting out', percent: 80 });
    const fg = estimateForeground(photo.data, mask, photo.width, photo.height);
    const rgba = Buffer.alloc(photo.width * photo.height * 4);
    for (let i = 0, n = photo.width * photo.height; i < n; i++) {
      const a = mask[i] as number;
      // Opaque (and invisible) pixels keep the photo's colour exactly; soft ones take the estimated foreground.
      const src = a > 0 && a < 255 ? fg : photo.data;
      rgba[i * 4] = src[i * 3] as number;
      rgba[i * 4 + 1] = src[i * 3 + 1] as number;
      rgba[i * 4 + 2] = src[i * 3 + 2] as number;
      rgba[i * 4 + 3] = a;
    }
    const png = await encodePng({ data: rgba, width: photo.width, height: photo.height, channels: 4 });
    return { images: [png] };
  },
  warm: ({ threads }) => warmIsnet(threads),
  release: releaseIsnet,
});
