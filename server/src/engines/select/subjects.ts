import type { SamEmbedding } from '../models/sam.js';
import { samDecode } from '../models/sam.js';
import type { RawImage } from '../raster/image.js';
import { components } from '../raster/morphology.js';
import { coreShares, objectCores, withMargin } from './sam-select.js';

/**
 * Segmentation's subjects on the segment-anything model (docs/select-object.md, "Segmentation"): every object the
 * salient-object map points at, each found as a click would find it. The salient map (ISNet) says where the
 * subjects are but runs touching things together (two dogs and the towel under them); each core of its shape (the
 * pixels deepest inside it, as sam-select.ts splits a region) prompts the model with a click at its deepest pixel
 * and the box of its share of the piece, and the answer is kept when the salient map mostly agrees with it (an
 * answer that spills into the background is dropped).
 */

/** The salient map is read at this long side. */
const SIDE = 256;
/** A salient piece smaller than this share of the photo is a speck, not a subject. */
const MIN_PIECE = 0.002;
/** An object is kept when at least this share of it is salient. */
const MIN_SALIENT = 0.6;

/** The subjects' mask (0/255, the photo's size), or null when the salient map points at nothing. */
export async function subjectsMask(
  salient: Buffer,
  photo: { width: number; height: number },
  embedding: SamEmbedding,
  threads: number,
): Promise<Buffer | null> {
  const scale = SIDE / Math.max(photo.width, photo.height);
  const w = Math.max(1, Math.round(photo.width * scale));
  const h = Math.max(1, Math.round(photo.height * scale));
  // The map sampled at the analysis size (each pixel the map's pixel at its centre).
  const set = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(photo.height - 1, Math.floor((y + 0.5) / scale));
    for (let x = 0; x < w; x++) {
      const sx = Math.min(photo.width - 1, Math.floor((x + 0.5) / scale));
      set[y * w + x] = (salient[sy * photo.width + sx] as number) >= 128 ? 1 : 0;
    }
  }
  // Each piece of the map, then each core of its shape: one object each, prompted as a click at the core's
  // deepest pixel with its share of the piece as the box.
  const out = Buffer.alloc(photo.width * photo.height);
  let found = false;
  const toPhoto = (v: number) => v / scale;
  for (const piece of components(set, w, h, 1, 1)) {
    if (piece.pixels.length < MIN_PIECE * set.length) continue;
    const own = { data: new Uint8Array(w * h), width: w, height: h };
    for (const p of piece.pixels) own.data[p] = 1;
    const cores = objectCores(own);
    const { boxes } = coreShares(own, cores);
    for (const [k, core] of cores.entries()) {
      const box = boxes[k];
      if (!box) continue;
      const m = withMargin(box);
      const answer = await samDecode(
        embedding,
        {
          points: [{ x: toPhoto((core.deepest % w) + 0.5), y: toPhoto(Math.floor(core.deepest / w) + 0.5), label: 1 }],
          box: {
            x0: toPhoto(m.left),
            y0: toPhoto(m.top),
            x1: toPhoto(m.left + m.width),
            y1: toPhoto(m.top + m.height),
          },
        },
        threads,
        photo,
      );
      // Kept when the map mostly agrees: not a spill into the background.
      let inside = 0;
      let salientInside = 0;
      for (let i = 0; i < answer.logits.length; i++) {
        if ((answer.logits[i] as number) <= 0) continue;
        inside++;
        if ((salient[i] as number) >= 128) salientInside++;
      }
      if (!inside || salientInside / inside < MIN_SALIENT) continue;
      for (let i = 0; i < answer.logits.length; i++) if ((answer.logits[i] as number) > 0) out[i] = 255;
      found = true;
    }
  }
  return found ? out : null;
}
