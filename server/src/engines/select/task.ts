import type { Params } from '@ai-editor/core';
import { releaseIsnet, salientMask } from '../models/isnet.js';
import { loadOpenCv } from '../models/opencv.js';
import { cropRaw, type Rect } from '../raster/geometry.js';
import { decode, decodeMask, encodePng, type RawImage } from '../raster/image.js';
import type { TaskEngine } from '../types.js';
import { SelectionCache } from './cache.js';
import { grabCutBox, grabCutLabels } from './grabcut.js';
import { refineMask } from './refine-mask.js';
import {
  clickModelSide,
  growSelection,
  PREPARED_AT_ONCE,
  preparedCrops,
  type SelectPrompt,
  selectObject,
} from './select-object.js';

/** A photo's model answers are kept this long after its last click, up to this much memory for all photos. */
const CACHE_TTL_MS = 10 * 60_000;
const CACHE_MAX_BYTES = 256 * 1024 * 1024;
const cache = new SelectionCache(CACHE_TTL_MS, CACHE_MAX_BYTES);

const rectOf = (key: string): Rect => {
  const [left, top, width, height] = key.split(',').map(Number) as [number, number, number, number];
  return { left, top, width, height };
};

/** ISNet's answer for one crop of a photo, from the cache when the photo was clicked near there before. */
async function cachedSegment(photo: string | undefined, img: RawImage, rect: Rect, threads: number) {
  const crop = `${rect.left},${rect.top},${rect.width},${rect.height}`;
  const known = photo ? cache.get(photo, crop) : undefined;
  if (known) return { mask: known, cached: true };
  const mask = await salientMask(img, threads, clickModelSide(img.width, img.height));
  if (photo) cache.set(photo, crop, mask);
  return { mask, cached: false };
}

/**
 * "Select object" run as a task of the engine pool: ISNet inference and the mask work are CPU-bound and stay off
 * the API's event loop. Input: the photo and the prompt in `params` (see SelectPrompt), or with `kind: 'mask'` a
 * painted mask to fit to the object under it (refine-mask.ts). Output: one PNG, the selection grown against halos,
 * white = selected, at the upright photo's size; metadata.selectedShare.
 */
const selectObjectEngine: TaskEngine = {
  async run(input, ctx) {
    const img = await decode(input.image);
    if (input.params.kind === 'mask') {
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
    if (input.params.kind === 'prepare') return prepareStep(img, input.params, ctx.threads);
    const prompt = promptOf(input.params);
    // The photo's key (services/uploads.ts photoKey) lets the answers for its earlier clicks be reused.
    const photo = typeof input.params.photo === 'string' ? input.params.photo : undefined;
    ctx.progress({ stage: 'selecting' });
    let runs = 0;
    const mask = await selectObject(img, prompt, {
      known: () => (photo ? cache.crops(photo).map(rectOf) : []),
      segment: async (crop, rect) => {
        const answer = await cachedSegment(photo, crop, rect, ctx.threads);
        if (!answer.cached) runs++;
        return answer.mask;
      },
      // OpenCV.js (~100 MB) is loaded for the first box only.
      cutBox: async (crop, box) => grabCutBox(await loadOpenCv())(crop, box),
    });
    const grown = growSelection(mask, img.width, img.height);
    return {
      images: [await encodePng({ data: grown, width: img.width, height: img.height, channels: 1 })],
      // modelRuns: how many crops the model had to see (0: every answer came from the photo's earlier clicks).
      metadata: { selectedShare: shareOf(grown), modelRuns: runs },
    };
  },
  warm: async ({ threads }) => {
    await salientMask({ data: Buffer.alloc(3 * 4), width: 2, height: 2, channels: 3 }, threads);
  },
  release: async () => {
    cache.clear();
    await releaseIsnet();
  },
  forget: (photo) => cache.forget(photo),
};

/**
 * One step of preparing a photo before its first click (services/select-prepare.ts runs them one at a time, so that
 * a click waits for one crop at most): the model's answer for grid crop `step` (select-object.ts preparedCrops), kept
 * like a click's. No image out; metadata.crops is how many steps there are, metadata.atOnce how many of them to run
 * without waiting for spare time, metadata.modelRuns 0 when the crop was known already (a click needed it first).
 */
async function prepareStep(img: RawImage, params: Params, threads: number) {
  const photo = typeof params.photo === 'string' ? params.photo : undefined;
  const crops = preparedCrops(img);
  const rect = crops[Number(params.step)];
  const steps = { crops: crops.length, atOnce: Math.min(crops.length, PREPARED_AT_ONCE) };
  if (!photo || !rect) return { images: [], metadata: { ...steps, modelRuns: 0 } };
  const answer = await cachedSegment(photo, cropRaw(img, rect), rect, threads);
  return { images: [], metadata: { ...steps, modelRuns: answer.cached ? 0 : 1 } };
}

function shareOf(mask: Buffer): number {
  let selected = 0;
  for (const v of mask) if (v) selected++;
  return selected / mask.length;
}

/** The prompt as the service put it in `params` (services/select-object-api.ts has checked it). */
function promptOf(params: Params): SelectPrompt {
  const n = (name: string): number => {
    const v = params[name];
    if (typeof v !== 'number') throw new Error(`Select object: no ${name} in the prompt`);
    return v;
  };
  return params.kind === 'box'
    ? { kind: 'box', x0: n('x0'), y0: n('y0'), x1: n('x1'), y1: n('y1') }
    : { kind: 'point', x: n('x'), y: n('y') };
}

export default selectObjectEngine;
