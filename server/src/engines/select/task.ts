import { AppError, type Params } from '@ai-editor/core';
import { peopleFaces, releaseFaces, warmFaces } from '../models/faces.js';
import { loadOpenCv } from '../models/opencv.js';
import { personMatte, releasePersonSeg, warmPersonSeg } from '../models/person-seg.js';
import { releaseSam, type SamEmbedding, samDecode, samEmbed } from '../models/sam.js';
import { decode, decodeMask, encodePng, type RawImage } from '../raster/image.js';
import type { TaskEngine } from '../types.js';
import { SelectionCache } from './cache.js';
import { grabCutLabels } from './grabcut.js';
import { growPart, place } from './grow.js';
import { RecentAnswers } from './recent-answers.js';
import { refineMask } from './refine-mask.js';
import { requestOf } from './request.js';
import { analysisSize, type People, samSelect } from './sam-select.js';

/** A photo's embedding is kept this long after its last click, up to this much memory for all photos (4 MB each). */
const CACHE_TTL_MS = 30 * 60_000;
const CACHE_MAX_BYTES = 256 * 1024 * 1024;
const cache = new SelectionCache(CACHE_TTL_MS, CACHE_MAX_BYTES);
/** A click's answers and its steps' (a click asks one to three, a step one more). */
const recent = new RecentAnswers(24);
const EMBEDDING = 'sam';
const FACES = 'faces';
const MATTE = 'matte';

/**
 * What a click needs of the photo: its embedding and its people (sam-select.ts People: their faces, and where there
 * are faces the people's matte), from the cache or computed now from the photo decoded once. `photo` is its content
 * key (services/uploads.ts photoKey).
 */
async function preparedPhoto(photo: string | undefined, image: Buffer, threads: number) {
  const known = photo ? cache.get(photo, EMBEDDING) : undefined;
  const knownFaces = photo ? cache.get(photo, FACES) : undefined;
  if (known && knownFaces) {
    const [width, height] = [known.readUInt32LE(0), known.readUInt32LE(4)];
    const data = new Float32Array(known.buffer, known.byteOffset + 8, (known.length - 8) / 4);
    const matte = photo ? cache.get(photo, MATTE) : undefined;
    const people: People = { faces: JSON.parse(knownFaces.toString()), matte };
    return { embedding: { data, width, height } satisfies SamEmbedding, people, computed: false };
  }
  // A click on a prepared photo comes without its bytes: the API sends them when this host does not keep it.
  if (!image.length) throw new AppError('SELECT_PHOTO_GONE');
  const img = await decode(image);
  const embedding = await samEmbed(img, threads);
  const people = await peopleOf(img);
  if (photo) {
    const kept = Buffer.alloc(8 + embedding.data.byteLength);
    kept.writeUInt32LE(embedding.width, 0);
    kept.writeUInt32LE(embedding.height, 4);
    Buffer.from(embedding.data.buffer, embedding.data.byteOffset, embedding.data.byteLength).copy(kept, 8);
    cache.set(photo, EMBEDDING, kept);
    cache.set(photo, FACES, Buffer.from(JSON.stringify(people.faces)));
    if (people.matte) cache.set(photo, MATTE, Buffer.from(people.matte));
  }
  return { embedding, people, computed: true };
}

/** The photo's people: their faces, and where there are faces the people's matte at the analysis size (0/1). */
export async function peopleOf(img: RawImage): Promise<People> {
  const faces = await peopleFaces(img);
  if (!faces.length) return { faces };
  const matte = await personMatte(img, analysisSize(img));
  return { faces, matte: Uint8Array.from(matte, (v) => (v >= 128 ? 1 : 0)) };
}

/**
 * "Select object" run as a task of the engine pool, on the segment-anything model (sam-select.ts); its inference
 * and mask work stay off the API's event loop. `params.kind`:
 * - `prepare`: computes the photo's embedding and finds its people (peopleOf), and keeps them (metadata.computed:
 *   false when they were kept already).
 * - `select` (the default): the selection for `points` ("x,y,label;…"), `box` ("x0,y0,x1,y1") and `level`; one PNG
 *   out, the selection grown against halos, white = selected, the photo's size or with `crop` its box alone;
 *   metadata: selectedShare, box ("left,top,width,height", what the PNG covers with `crop`), level, smaller, larger
 *   (the steps the ladder has below and above), computed. No PNG when nothing is selected.
 * - `mask`: a painted mask fitted to the object under it (refine-mask.ts, GrabCut).
 */
const selectObjectEngine: TaskEngine = {
  async run(input, ctx) {
    const photo = typeof input.params.photo === 'string' ? input.params.photo : undefined;
    if (input.params.kind === 'mask') {
      const img = await decode(input.image);
      if (!input.mask) throw new Error('Fit mask to object: no mask');
      ctx.progress({ stage: 'fitting' });
      const painted = await decodeMask(input.mask, img.width, img.height);
      // OpenCV.js (~100 MB) is loaded for the first fit only.
      const fitted = await refineMask(img, painted.data, grabCutLabels(await loadOpenCv()));
      return {
        images: [await encodePng({ data: fitted, width: img.width, height: img.height, channels: 1 })],
        metadata: { selectedShare: shareOf(fitted) },
      };
    }
    if (input.params.kind === 'prepare') {
      const { computed } = await preparedPhoto(photo, input.image, ctx.threads);
      return { images: [], metadata: { computed } };
    }
    ctx.progress({ stage: 'selecting' });
    const { embedding, people, computed } = await preparedPhoto(photo, input.image, ctx.threads);
    const selection = await samSelect(
      requestOf(input.params),
      embedding,
      (prompt, size) => {
        const decode = () => samDecode(embedding, prompt, ctx.threads, size);
        return photo ? recent.answer(photo, prompt, size, decode) : decode();
      },
      people,
    );
    const { width, height } = embedding;
    const grown = selection.mask && growPart(selection.mask, embedding);
    const steps = { level: selection.level, smaller: selection.smaller, larger: selection.larger, computed };
    if (!grown) return { images: [], metadata: { selectedShare: 0, ...steps } };
    // The page asks for the selection's box alone: a fraction of the photo's pixels to encode, send and draw.
    const { rect } = grown;
    const png = input.params.crop
      ? await encodePng({ data: Buffer.from(grown.data), width: rect.width, height: rect.height, channels: 1 })
      : await encodePng({ data: place(grown.data, rect, width, height), width, height, channels: 1 });
    return {
      images: [png],
      metadata: {
        selectedShare: shareOf(grown.data) * ((rect.width * rect.height) / (width * height)),
        box: [rect.left, rect.top, rect.width, rect.height].join(','),
        ...steps,
      },
    };
  },
  warm: async ({ threads }) => {
    await warmFaces();
    await warmPersonSeg();
    await warmSelection(threads);
  },
  release: async () => {
    cache.clear();
    recent.clear();
    await Promise.all([releaseSam(), releaseFaces(), releasePersonSeg()]);
  },
  forget: (photo) => {
    cache.forget(photo);
    recent.forget(photo);
  },
};

/**
 * Clicks on a drawn photo through every path of a selection, so that V8 has compiled its JavaScript (the region's
 * analysis, the mask, its growth) before a visitor clicks: on the first photo after a start, a click repeated with
 * its decoder passes kept took 243 ms, on later photos 67-78 ms. The photo is two discs that touch; made-up faces
 * over them and a matte over both take the people's paths too.
 */
async function warmSelection(threads: number): Promise<void> {
  const photo = 'warm-up';
  const [width, height] = [384, 256];
  const discs = [
    { x: 130, y: 140, r: 70, rgb: [200, 40, 40] },
    { x: 262, y: 140, r: 70, rgb: [40, 60, 200] },
  ];
  const inDisc = (x: number, y: number) => discs.find((d) => (x - d.x) ** 2 + (y - d.y) ** 2 <= d.r ** 2);
  const data = Buffer.alloc(width * height * 3, 230);
  for (let i = 0; i < width * height; i++) {
    const disc = inDisc(i % width, Math.floor(i / width));
    if (disc) data.set(disc.rgb, 3 * i);
  }
  const image = await encodePng({ data, width, height, channels: 3 });
  const ctx = { threads, progress: () => {}, signal: new AbortController().signal };
  const run = (params: Params) =>
    selectObjectEngine.run({ image, params: { photo, crop: true, ...params }, forOperation: 'object-removal' }, ctx);
  const asks: Params[] = [
    { points: '130,140,1' },
    { points: '130,140,1', level: 1 },
    { points: '130,140,1', level: -1 },
    { points: '130,140,1;262,140,0' },
    { box: '50,60,210,220' },
  ];
  await run({ kind: 'prepare' });
  for (const ask of asks) await run(ask);
  const small = analysisSize({ width, height });
  const k = width / small.width;
  const matte = new Uint8Array(small.width * small.height);
  for (let i = 0; i < matte.length; i++)
    matte[i] = inDisc((i % small.width) * k, Math.floor(i / small.width) * k) ? 1 : 0;
  cache.set(photo, FACES, Buffer.from(JSON.stringify(discs.map((d) => [d.x - 20, d.y - d.r, 40, 40]))));
  cache.set(photo, MATTE, Buffer.from(matte));
  for (const ask of asks) await run(ask);
  cache.forget(photo);
  recent.forget(photo);
}

function shareOf(mask: Uint8Array): number {
  let selected = 0;
  for (const v of mask) if (v) selected++;
  return selected / mask.length;
}

export default selectObjectEngine;
