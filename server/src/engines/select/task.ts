import type { Params } from '@ai-editor/core';
import { releaseIsnet, salientMask } from '../models/isnet.js';
import { loadOpenCv } from '../models/opencv.js';
import { decode, encodePng } from '../raster/image.js';
import type { Engine } from '../types.js';
import { grabCutBox } from './grabcut.js';
import { growSelection, type SelectPrompt, selectObject } from './select-object.js';

/**
 * "Select object" run as a task of the engine pool: ISNet inference and the mask work are CPU-bound and stay off
 * the API's event loop. Input: the photo and the prompt in `params` (see SelectPrompt). Output: one PNG, the
 * selection grown against halos, white = selected, at the upright photo's size; metadata.selectedShare.
 */
const selectObjectEngine: Engine = {
  async run(input, ctx) {
    if (!input.image) throw new Error('Select object needs a photo');
    const img = await decode(input.image);
    const prompt = promptOf(input.params);
    ctx.progress({ stage: 'selecting' });
    const mask = await selectObject(img, prompt, {
      segment: (crop) => salientMask(crop, ctx.threads),
      // OpenCV.js (~100 MB) is loaded for the first box only.
      cutBox: async (crop, box) => grabCutBox(await loadOpenCv())(crop, box),
    });
    const grown = growSelection(mask, img.width, img.height);
    let selected = 0;
    for (const v of grown) if (v) selected++;
    return {
      images: [await encodePng({ data: grown, width: img.width, height: img.height, channels: 1 })],
      metadata: { selectedShare: selected / grown.length },
    };
  },
  warm: async ({ threads }) => {
    await salientMask({ data: Buffer.alloc(3 * 4), width: 2, height: 2, channels: 3 }, threads);
  },
  release: releaseIsnet,
};

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
