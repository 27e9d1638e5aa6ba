import sharp from 'sharp';
import { defineEngine } from '../define.js';
import { fillMasked } from '../fill/masked-fill.js';
import { detectFaces, type Face, releaseFaces } from '../models/faces.js';
import { releaseMigan } from '../models/migan.js';
import { decode, decodeMask, encodePng, lumaBytes, type RawImage } from '../raster/image.js';
import { dilate } from '../raster/morphology.js';
import { denoise } from '../restore/denoise.js';
import {
  enhanceFaces as enhanceFacesOf,
  NO_FACE_NOTE,
  releaseFaceEnhancement,
  warmFaceEnhancement,
} from '../restore/face-enhance.js';
import { fillRims, fillThinMarks } from '../restore/fill-thin-marks.js';
import { grainSigma } from '../restore/grain.js';
import { detectDefects } from '../restore/scratches.js';

/**
 * Photo restoration, an old-photo pipeline that never invents colour:
 * 1. find scratches and dust (restore/scratches.ts) on the photo as it came, before any smoothing thins them, and
 *    add the user's mask if one was painted; eyes and lips are protected, so catchlights are not taken for dust, and
 *    the colours are passed along, since a mark that keeps the colour it lies on is a real thin object;
 * 2. fill those marks: detected ones and thin painted strokes from the pixels right beside them (normalised
 *    convolution, fillThinMarks), then the detected marks' faint rims (fillRims), a painted area with the learned fill's blend, as Inpainting does
 *    (fill/masked-fill.ts: MI-GAN and patch fills);
 * 3. reduce grain and noise (non-local means, restore/denoise.ts), on a grainy photo only;
 * 4. enhance the faces, when there are any (the face-enhancement engine: Real-ESRGAN on each face, blended back).
 * Output: images[0] is the restored photo, images[1] a mask of what was repaired (white), to check and download.
 * A greyscale photo is worked on as one channel and returned as a greyscale PNG; a colour (or toned) photo keeps
 * its own colours: detected marks are filled by averaging the photo's own pixels beside them.
 */

/** A painted mask is widened by this much before filling, so its soft edges go too. */
const MASK_GROW = 1;
/**
 * Grain (standard deviation, grey levels, restore/grain.ts grainSigma) from which a photo is grainy. Clean
 * camera.png and brick read 0.7, gravel's texture 4.4; coffee.png with the tests' grain of 10 reads 8.2.
 */
const GRAINY = 5;
/** A painted mask no deeper than this is filled like detected marks, from its edges; deeper ones by inpainting. */
const THIN_DEPTH = 4;
/** A painted area is filled as Inpainting fills one: the mask grown only over the brush's soft edge. */
const PAINTED_FILL = { dilation: 0.002, minDilation: 1, keepForeign: true };
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

/** (max - min) / max of R, G and B per pixel: a scratch is greyer than the colour it crosses. */
function saturation(img: RawImage): Float32Array {
  const n = img.width * img.height;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * img.channels;
    const r = img.data[o] as number;
    const g = img.data[o + 1] as number;
    const b = img.data[o + 2] as number;
    const top = Math.max(r, g, b);
    out[i] = top ? (top - Math.min(r, g, b)) / top : 0;
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

export default defineEngine('photo-restoration', {
  async run(input, ctx) {
    const { denoise: denoiseStrength, scratch_sensitivity: sensitivity, enhance_faces: enhanceFaces } = input.params;
    ctx.progress({ stage: 'Reading the photo', percent: 2 });
    const photo = await decode(input.image);
    const { width: w, height: h } = photo;
    const grey = isGreyscale(photo);
    let work: RawImage = grey ? { data: lumaBytes(photo), width: w, height: h, channels: 1 } : photo;

    // 1. Scratches and dust, found on a lightly smoothed luminance (grain would otherwise look like specks), their
    //    exact outline on the luminance as it is.
    ctx.progress({ stage: 'Finding scratches and dust', percent: 5 });
    let faces: Face[] = [];
    try {
      faces = await detectFaces(grey ? await toRgb(work) : photo);
    } catch {
      // Faces only protect eyes and lips from being taken for dust; detection goes on without them.
    }
    const y = Float32Array.from(lumaBytes(work));
    const grain = grainSigma(y, w, h);
    const defects =
      sensitivity > 0
        ? detectDefects(await blurred(y, w, h), w, h, {
            unsmoothed: y,
            sensitivity: sensitivity / 100,
            protect: await protectedFeatures(faces, w, h),
            saturation: grey ? undefined : saturation(photo),
          })
        : { mask: new Uint8Array(w * h), scratches: 0, dust: 0 };
    const user = input.mask ? await decodeMask(input.mask, w, h) : undefined;
    // Detected marks come with their rims (detectDefects); a painted mask is widened to take soft edges along.
    const grown = Uint8Array.from(defects.mask);
    let marked = 0;
    for (let i = 0; i < grown.length; i++) {
      if (user?.data[i]) grown[i] = 0;
      else if (grown[i]) marked++;
    }

    // 2. Fill the marks: detected ones are thin and are bridged from their edges; a painted mask may be wide and is
    //    filled by the learned fill.
    ctx.progress({ stage: 'Repairing scratches and dust', percent: 15 });
    if (marked) {
      const filled = fillThinMarks(work.data, w, h, work.channels, grown, (f) =>
        ctx.progress({ stage: 'Repairing scratches and dust', percent: Math.round(15 + 15 * f) }),
      );
      // Then the marks' faint rims, which their outline leaves out: repaired too.
      const rims = fillRims(work.data, filled, w, h, work.channels, grown);
      for (const i of rims.refilled) {
        if (user?.data[i]) continue; // the painted area's, counted with it
        grown[i] = 255;
        marked++;
      }
      work = { ...work, data: rims.data };
    }
    if (user && isThin(user.data, w, h)) {
      work = { ...work, data: fillThinMarks(work.data, w, h, work.channels, dilate(user.data, w, h, MASK_GROW)) };
    } else if (user) {
      // A painted area: the learned fill's blend, as Inpainting fills (fill/masked-fill.ts).
      const filled = await fillMasked(
        { image: await encodePng(work.channels === 1 ? await toRgb(work) : work), mask: input.mask as Buffer },
        {
          ...ctx,
          progress: (p) =>
            ctx.progress({ stage: 'Repairing the painted areas', percent: Math.round(30 + 0.25 * (p.percent ?? 0)) }),
        },
        PAINTED_FILL,
      );
      const rgb = await decode(filled.images[0] as Buffer);
      work = grey ? { data: lumaBytes(rgb), width: w, height: h, channels: 1 } : rgb;
    }

    // 3. Grain and noise, on a grainy photo only: a clean one keeps its texture untouched (the denoiser's own noise
    //    estimate, over the whole photo, reads texture as noise).
    let sigma: number | undefined;
    if (denoiseStrength > 0 && grain >= GRAINY) {
      ctx.progress({ stage: 'Reducing grain', percent: 55 });
      const result = denoise(work, {
        strength: denoiseStrength / 50,
        onProgress: (f) => ctx.progress({ stage: 'Reducing grain', percent: Math.round(55 + 40 * f) }),
      });
      work = result.image;
      sigma = Math.round(result.sigma * 10) / 10;
    }

    // 4. Faces, on the cleaned photo (the face engine finds them again there: cheap next to the rest).
    let facesEnhanced = 0;
    if (enhanceFaces && faces.length) {
      ctx.progress({ stage: 'Enhancing faces', percent: 80 });
      const rgb = work.channels === 1 ? await toRgb(work) : work;
      // Only when the cleaned photo still shows a face: without one the face engine would enhance the whole photo.
      if ((await detectFaces(rgb).catch(() => [])).length) {
        const out = await enhanceFacesOf(
          {
            operation: 'face-enhancement',
            image: await encodePng(rgb),
            params: { scale: '1', format: 'png', quality: 90 },
          },
          {
            ...ctx,
            progress: (p) =>
              ctx.progress({ stage: 'Enhancing faces', percent: Math.round(80 + 0.15 * (p.percent ?? 0)) }),
          },
        );
        if (out.metadata?.note !== NO_FACE_NOTE) {
          const enhanced = await decode(out.images[0] as Buffer);
          facesEnhanced = Array.isArray(out.metadata?.faces) ? out.metadata.faces.length : 0;
          // A greyscale photo stays greyscale: only the enhanced luminance is kept.
          work = grey ? { data: lumaBytes(enhanced), width: w, height: h, channels: 1 } : enhanced;
        }
      }
    }

    ctx.progress({ stage: 'Encoding', percent: 97 });
    const png = grey
      ? await sharp(work.data, { raw: { width: w, height: h, channels: 1 } })
          .toColourspace('b-w')
          .png()
          .toBuffer()
      : await encodePng(work);
    // What was repaired (detected marks, grown, plus the painted mask): white = repaired, for the user to check.
    const repaired = Buffer.alloc(w * h);
    for (let i = 0; i < repaired.length; i++) if (grown[i] || user?.data[i]) repaired[i] = 255;
    const repairedPng = await sharp(repaired, { raw: { width: w, height: h, channels: 1 } })
      .toColourspace('b-w')
      .png()
      .toBuffer();
    return {
      images: [png, repairedPng],
      metadata: {
        greyscale: grey,
        scratches: defects.scratches,
        dust: defects.dust,
        userMask: Boolean(input.mask),
        repairedShare: Math.round((marked / (w * h)) * 10000) / 10000,
        paintedShare: user ? Math.round((user.data.reduce((a, v) => a + (v ? 1 : 0), 0) / (w * h)) * 10000) / 10000 : 0,
        grain: Math.round(grain * 10) / 10,
        estimatedNoiseSigma: sigma,
        faces: faces.length,
        facesEnhanced,
      },
    };
  },
  async release() {
    await Promise.all([releaseFaceEnhancement(), releaseFaces(), releaseMigan()]);
  },
  /** Face enhancement's models (human's face models and Real-ESRGAN) are this engine's only ones. */
  warm: warmFaceEnhancement,
});

/** True when no painted pixel lies deeper than THIN_DEPTH inside the mask (strokes over scratches, not areas). */
function isThin(mask: Uint8Array, w: number, h: number): boolean {
  const outside = mask.map((v) => (v ? 0 : 1));
  const near = dilate(outside, w, h, THIN_DEPTH);
  for (let i = 0; i < mask.length; i++) if (mask[i] && !near[i]) return false;
  return true;
}

/** Gaussian blur of sigma 1 of a luminance plane. */
async function blurred(y: Float32Array, w: number, h: number): Promise<Float32Array> {
  const bytes = Buffer.from(new Uint8Array(y.map((v) => Math.round(v))));
  return Float32Array.from(
    await sharp(bytes, { raw: { width: w, height: h, channels: 1 } })
      .blur(1)
      .extractChannel(0)
      .raw()
      .toBuffer(),
  );
}

/** Copies a one-channel image into three equal channels. */
async function toRgb(grey: RawImage): Promise<RawImage> {
  const data = Buffer.alloc(grey.width * grey.height * 3);
  for (let i = 0; i < grey.width * grey.height; i++) data.fill(grey.data[i] as number, i * 3, i * 3 + 3);
  return { ...grey, data, channels: 3 };
}
