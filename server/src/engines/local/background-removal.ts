import sharp from 'sharp';
import { defineEngine } from '../define.js';
import { releaseIsnet, salientMask, warmIsnet } from '../models/isnet.js';
import { estimateForeground } from '../raster/foreground.js';
import { cropRaw, maskBox, padBox, type Rect } from '../raster/geometry.js';
import { decode, encodePng, type RawImage } from '../raster/image.js';

/** Pixels of the mask at or above this count as subject when cropping. */
const CROP_THRESHOLD = 16;
/** The crop keeps this share of the subject's larger side around it (at least 4 px). */
const CROP_MARGIN = 0.04;

/**
 * Background removal: ISNet's subject mask, as the alpha channel of the photo (a transparent background), over a
 * colour or the photo blurred, or as the greyscale mask itself; optionally cropped to the subject with a margin.
 */
export default defineEngine('background-removal', {
  async run(input, ctx) {
    const { background, output, crop } = input.params;
    ctx.progress({ stage: 'Finding the subject', percent: 10 });
    const photo = await decode(input.image);
    const mask = await salientMask(photo, ctx.threads);
    ctx.progress({ stage: 'Cutting out', percent: 80 });
    const subject = decontaminated(photo, mask);
    const box = crop ? subjectBox(mask, photo.width, photo.height) : undefined;
    const alpha: RawImage = { data: mask, width: photo.width, height: photo.height, channels: 1 };
    const cropped = (img: RawImage) => (box ? cropRaw(img, box) : img);
    if (output === 'mask') return { images: [await encodePng(cropped(alpha))] };
    const png =
      background === 'transparent'
        ? await encodePng(cropped(withAlpha(subject, mask)))
        : await encodePng(cropped(await composite(subject, mask, background)));
    return { images: [png] };
  },
  warm: ({ threads }) => warmIsnet(threads),
  release: releaseIsnet,
});

/**
 * The photo with the subject's own colour at its soft edge (hair, fur), estimated without the old background mixed
 * in (raster/foreground.ts), so that the cut-out on a new background shows no fringe of the old one.
 */
function decontaminated(photo: RawImage, mask: Uint8Array | Buffer): RawImage {
  return { ...photo, data: Buffer.from(estimateForeground(photo.data, mask, photo.width, photo.height).buffer) };
}

/** The cut-out: fully transparent pixels hold black, so the removed background cannot be read back from the file. */
function withAlpha(photo: RawImage, mask: Uint8Array | Buffer): RawImage {
  const n = photo.width * photo.height;
  const rgba = Buffer.alloc(n * 4);
  for (let i = 0; i < n; i++) {
    if (mask[i] === 0) continue;
    rgba[i * 4] = photo.data[i * 3] as number;
    rgba[i * 4 + 1] = photo.data[i * 3 + 1] as number;
    rgba[i * 4 + 2] = photo.data[i * 3 + 2] as number;
    rgba[i * 4 + 3] = mask[i] as number;
  }
  return { data: rgba, width: photo.width, height: photo.height, channels: 4 };
}

/** The subject over `background` (a colour `#rrggbb`, or 'blur': the photo itself, blurred), opaque RGB. */
async function composite(photo: RawImage, mask: Uint8Array | Buffer, background: string): Promise<RawImage> {
  const n = photo.width * photo.height;
  let under: Buffer;
  if (background === 'blur') {
    const sigma = Math.max(2, Math.round(Math.max(photo.width, photo.height) / 60));
    under = await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 3 } })
      .blur(sigma)
      .raw()
      .toBuffer();
  } else {
    const rgb = [1, 3, 5].map((at) => Number.parseInt(background.slice(at, at + 2), 16));
    under = Buffer.alloc(n * 3);
    for (let i = 0; i < n; i++) under.set(rgb, i * 3);
  }
  const out = Buffer.alloc(n * 3);
  for (let i = 0; i < n; i++) {
    const a = (mask[i] as number) / 255;
    for (let c = 0; c < 3; c++) {
      const j = i * 3 + c;
      out[j] = Math.round((photo.data[j] as number) * a + (under[j] as number) * (1 - a));
    }
  }
  return { data: out, width: photo.width, height: photo.height, channels: 3 };
}

/** The subject's bounding box with a margin, inside the photo; undefined when no subject was found. */
function subjectBox(mask: Uint8Array | Buffer, width: number, height: number): Rect | undefined {
  const box = maskBox({ data: mask, width, height }, CROP_THRESHOLD);
  if (!box) return undefined;
  const margin = Math.max(4, Math.round(CROP_MARGIN * Math.max(box.width, box.height)));
  return padBox(box, margin, width, height);
}
