import sharp from 'sharp';
import { denoise } from '../shared/denoise.js';
import { detectFaces, type Face } from '../shared/faces.js';
import { dilate, processMaskedRegion } from '../shared/fit.js';
import { decode, decodeMask, encodePng, type RawImage } from '../shared/image.js';
import { inpaint } from '../shared/inpaint.js';
import { detectDefects } from '../shared/scratches.js';
import type { Engine } from '../types.js';

/**
 * Photo restoration, an old-photo pipeline that never invents colour:
 * 1. find scratches and dust (shared/scratches.ts) on the photo as it came, before any smoothing thins them, and
 *    add the user's mask if one was painted; eyes and lips are protected, so catchlights are not taken for dust;
 * 2. fill those marks from the photo's own texture (patch-based inpainting, shared/inpaint.ts), grain included;
 * 3. reduce grain and noise (non-local means, shared/denoise.ts);
 * A greyscale photo is worked on as one channel and returned as a greyscale PNG; a colour (or toned) photo keeps
 * its own colours, since every step only copies or averages the photo's own pixels.
 */

/** Marks are widened by this much before filling, so their soft edges go too. */
const MASK_GROW = 1;
/** Largest crop the inpainting works on at full size. */
const INPAINT_MAX_PIXELS = 1.2e6;
/** A photo whose channels differ by at most this (JPEG noise) at 99.5% of pixels is greyscale. */
const GREY_TOLERANCE = 3;

function isGreyscale(img: RawImage): boolean {
  if (img.channels < 3) return true;
  const n = img.width * img.height;
  let off = 0;
  for (let i = 0; i < n; i++) {
    const o = i * img.channels;
    const r = img.data[o] as number;
    const g = img.data[o + 1] as number;
    const b = img.data[o + 2] as number;
    if (Math.abs(r - g) > GREY_TOLERANCE || Math.abs(g - b) > GREY_TOLERANCE) off++;
  }
  return off <= n * 0.005;
}

function luminance(img: RawImage): Buffer {
  const n = img.width * img.height;
  if (img.channels === 1) return img.data;
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    const o = i * img.channels;
    out[i] = Math.round(
      0.299 * (img.data[o] as number) + 0.587 * (img.data[o + 1] as number) + 0.114 * (img.data[o + 2] as number),
    );
  }
  return out;
}

/** Eyes, brows and lips of the faces found, rasterised: the marks detection must leave alone. */
async function protectedFeatures(faces: Face[], width: number, height: number): Promise<Uint8Array | undefined> {
  const polygons = faces.flatMap((f) => f.features).filter((p) => p.length >= 3);
  if (!polygons.length) return undefined;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${polygons
    .map(
      (p) =>
        `<polygon points="${p.map(([x, y]) => `${x},${y}`).join(' ')}" fill="#fff" stroke="#fff" stroke-width="4"/>`,
    )
    .join('')}</svg>`;
  return sharp(Buffer.from(svg)).ensureAlpha().extractChannel(3).raw().toBuffer();
}

const photoRestoration: Engine = {
  async run(input, ctx) {
    if (!input.image) throw new Error('Photo restoration needs a photo');
    const denoiseStrength = Number(input.params.denoise ?? 50);
    const sensitivity = Number(input.params.scratch_sensitivity ?? 50);
    ctx.progress({ stage: 'Reading the photo', percent: 2 });
    const photo = await decode(input.image);
    const { width: w, height: h } = photo;
    const grey = isGreyscale(photo);
    let work: RawImage = grey ? { data: luminance(photo), width: w, height: h, channels: 1 } : photo;

    // 1. Scratches and dust, found on a lightly smoothed luminance (grain would otherwise look like specks).
    ctx.progress({ stage: 'Finding scratches and dust', percent: 5 });
    let faces: Face[] = [];
    try {
      faces = await detectFaces(grey ? await toRgb(work) : photo);
    } catch {
      // Faces only protect eyes and lips from being taken for dust; detection goes on without them.
    }
    const defects =
      sensitivity > 0
        ? detectDefects(
            Float32Array.from(
              await sharp(luminance(work), { raw: { width: w, height: h, channels: 1 } })
                .blur(1)
                .extractChannel(0)
                .raw()
                .toBuffer(),
            ),
            w,
            h,
            { sensitivity: sensitivity / 100, protect: await protectedFeatures(faces, w, h) },
          )
        : { mask: new Uint8Array(w * h), scratches: 0, dust: 0 };
    const marks = defects.mask;
    if (input.mask) {
      const user = await decodeMask(input.mask, w, h);
      for (let i = 0; i < marks.length; i++) if (user.data[i]) marks[i] = 255;
    }
    const grown = dilate(marks, w, h, MASK_GROW);
    let marked = 0;
    for (const v of grown) if (v) marked++;

    // 2. Fill the marks from the photo's own texture.
    ctx.progress({ stage: 'Repairing scratches and dust', percent: 15 });
    if (marked) {
      const region = await processMaskedRegion(
        work,
        { data: Buffer.from(grown.buffer, grown.byteOffset, grown.length), width: w, height: h, channels: 1 },
        { margin: 16, maxPixels: INPAINT_MAX_PIXELS },
        (crop, cropMask) =>
          inpaint(crop, cropMask, {
            onProgress: (f) =>
              ctx.progress({ stage: 'Repairing scratches and dust', percent: Math.round(15 + 40 * f) }),
          }).image,
      );
      if (region) work = region.image;
    }

    // 3. Grain and noise.
    let sigma: number | undefined;
    if (denoiseStrength > 0) {
      ctx.progress({ stage: 'Reducing grain', percent: 55 });
      const result = denoise(work, {
        strength: denoiseStrength / 50,
        onProgress: (f) => ctx.progress({ stage: 'Reducing grain', percent: Math.round(55 + 40 * f) }),
      });
      work = result.image;
      sigma = Math.round(result.sigma * 10) / 10;
    }

    ctx.progress({ stage: 'Encoding', percent: 97 });
    const png = grey
      ? await sharp(work.data, { raw: { width: w, height: h, channels: 1 } })
          .toColourspace('b-w')
          .png()
          .toBuffer()
      : await encodePng(work);
    return {
      images: [png],
      metadata: {
        greyscale: grey,
        scratches: defects.scratches,
        dust: defects.dust,
        userMask: Boolean(input.mask),
        repairedShare: Math.round((marked / (w * h)) * 10000) / 10000,
        estimatedNoiseSigma: sigma,
        faces: faces.length,
      },
    };
  },
};

async function toRgb(grey: RawImage): Promise<RawImage> {
  const data = Buffer.alloc(grey.width * grey.height * 3);
  for (let i = 0; i < grey.width * grey.height; i++) data.fill(grey.data[i] as number, i * 3, i * 3 + 3);
  return { ...grey, data, channels: 3 };
}

export default photoRestoration;
