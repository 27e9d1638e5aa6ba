import { defineEngine } from '../define.js';
import { releaseIsnet, salientMask, warmIsnet } from '../models/isnet.js';
import { decode, encodePng } from '../raster/image.js';

/** Background removal: ISNet's subject mask becomes the alpha channel of the photo, at the photo's own size. */
export default defineEngine('background-removal', {
  async run(input, ctx) {
    ctx.progress({ stage: 'Finding the subject', percent: 10 });
    const photo = await decode(input.image);
    const mask = await salientMask(photo, ctx.threads);
    ctx.progress({ stage: 'Cutting out', percent: 90 });
    const rgba = Buffer.alloc(photo.width * photo.height * 4);
    for (let i = 0, n = photo.width * photo.height; i < n; i++) {
      rgba[i * 4] = photo.data[i * 3] as number;
      rgba[i * 4 + 1] = photo.data[i * 3 + 1] as number;
      rgba[i * 4 + 2] = photo.data[i * 3 + 2] as number;
      rgba[i * 4 + 3] = mask[i] as number;
    }
    const png = await encodePng({ data: rgba, width: photo.width, height: photo.height, channels: 4 });
    return { images: [png] };
  },
  warm: ({ threads }) => warmIsnet(threads),
  release: releaseIsnet,
});
