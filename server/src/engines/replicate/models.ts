/**
 * Which Replicate model each operation runs and how our checked parameters become that model's input.
 * Model versions are pinned by default (a model's newest version may change its inputs) and can be replaced with
 * REPLICATE_MODEL_<OPERATION>=owner/name[:version]. Any operation can instead use a generic mapping: a JSON input
 * template in REPLICATE_INPUT_<OPERATION> whose "$image", "$image2", "$mask" and "$params.<name>" strings are
 * replaced by the uploaded files' URLs and our parameters.
 */
import type { OperationId, Params } from '@ai-editor/core';
import { getOperation } from '@ai-editor/core';
import type { EngineSettings } from '../settings.js';
import { type ModelRef, parseModelRef } from './model-ref.js';

export type FileSlot = 'image' | 'image2' | 'mask';
export type FileUrls = Partial<Record<FileSlot, string>>;

export interface Mapping {
  model: ModelRef;
  /** The uploads this mapping sends, in order. */
  files: FileSlot[];
  buildInput(files: FileUrls, params: Params): Record<string, unknown>;
}

/** Defaults, pinned to the versions whose input schemas are committed under server/test/replicate/schemas. */
export const DEFAULT_MODELS = {
  text2img: 'stability-ai/sdxl:7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc',
  'text-to-image-diffusion':
    'stability-ai/stable-diffusion:ac732df83cea7fff18b8472768c88ad041fa750ff7682a21affe81863cbe77e4',
  'style-transfer': 'tencentarc/photomaker-style:467d062309da518648ba89d226490e02b8ed09b5abc15026e54e31c5a8cd0769',
  colorization: 'piddnad/ddcolor:ca494ba129e44e45f661d6ece83c4c98a9a7c774309beca01429b58fce8aa695',
  'face-swap': 'cdingram/face-swap:d1d6ea8c8be89d664a07a457526f7128109dee7030fdac424788d762c71ed111',
  'face-aging': 'yuval-alaluf/sam:9222a21c181b707209ef12b5e0d7e94c994b58f01c7b2fec075d2e892362f13c',
  'image-inpainting':
    'stability-ai/stable-diffusion-inpainting:95b7223104132402a9ae91cc677285bc5eb997834bd2349fa486f53910fd68b3',
} as const satisfies Partial<Record<OperationId, string>>;

type BuiltIn = keyof typeof DEFAULT_MODELS;

/** PhotoMaker-style accepts style_strength_ratio 15–50 (%); our slider is 1–100. */
export const STYLE_STRENGTH_RANGE = { min: 15, max: 50 } as const;

/** Maps the 1–100 slider linearly onto 15–50 (1 → 15, 35 → 27, 100 → 50), one decimal, never out of range. */
export function styleStrengthRatio(slider: number): number {
  const { min, max } = STYLE_STRENGTH_RANGE;
  const s = Number.isFinite(slider) ? Math.min(100, Math.max(1, slider)) : 1;
  const t = (s - 1) / 99;
  return Math.min(max, Math.max(min, Math.round((min + t * (max - min)) * 10) / 10));
}

/** SD inpainting's sampling, as in the model's own example: 25 DPM-Solver steps at guidance 7.5. */
export const INPAINT_SAMPLING = { num_inference_steps: 25, guidance_scale: 7.5, scheduler: 'DPMSolverMultistep' };

const BUILT_IN: Record<BuiltIn, Omit<Mapping, 'model'>> = {
  // SDXL with the expert-ensemble refiner and no watermark, as the original product ran it.
  text2img: {
    files: [],
    buildInput: (_f, p) => ({
      prompt: p.prompt,
      width: p.width,
      height: p.height,
      refine: p.refine,
      apply_watermark: p.apply_watermark,
      num_inference_steps: p.num_inference_steps,
    }),
  },
  // The model's own default scheduler is DPMSolverMultistep, so ours is always sent explicitly.
  'text-to-image-diffusion': {
    files: [],
    buildInput: (_f, p) => ({
      prompt: p.prompt,
      width: p.width,
      height: p.height,
      scheduler: p.scheduler,
      num_outputs: p.num_outputs,
      guidance_scale: p.guidance_scale,
      num_inference_steps: p.num_inference_steps,
    }),
  },
  'style-transfer': {
    files: ['image'],
    buildInput: (f, p) => ({
      input_image: f.image,
      prompt: p.prompt,
      negative_prompt: p.negative_prompt,
      num_steps: p.num_steps,
      style_strength_ratio: styleStrengthRatio(Number(p.style_strength_ratio)),
      num_outputs: p.num_outputs,
    }),
  },
  colorization: {
    files: ['image'],
    buildInput: (f) => ({ image: f.image, model_size: 'large' }),
  },
  // input_image is the photo that receives the face, swap_image the face to put in (our `file2`).
  'face-swap': {
    files: ['image', 'image2'],
    buildInput: (f) => ({ input_image: f.image, swap_image: f.image2 }),
  },
  // SAM answers one PNG for a numeric age (a GIF of all ages for 'default', which we never ask for).
  'face-aging': {
    files: ['image'],
    buildInput: (f, p) => ({ image: f.image, target_age: String(p.target_age) }),
  },
  // The engine sends a crop around the mask scaled to 512 px (replicate/inpaint-crop.ts): `width` and `height` are
  // that crop's size, set by it, not catalogue parameters.
  'image-inpainting': {
    files: ['image', 'mask'],
    buildInput: (f, p) => ({
      image: f.image,
      mask: f.mask,
      prompt: p.prompt,
      width: p.width ?? 512,
      height: p.height ?? 512,
      num_outputs: 1,
      ...INPAINT_SAMPLING,
    }),
  },
};

function isBuiltIn(op: string): op is BuiltIn {
  return Object.hasOwn(BUILT_IN, op);
}

/** True when this server could run `operation` on Replicate (token set, and a built-in or configured model). */
export function hasReplicateMapping(operation: OperationId, config: EngineSettings): boolean {
  return Boolean(config.replicateApiToken) && (isBuiltIn(operation) || Boolean(config.replicateModels[operation]));
}

/** The mapping for `operation`; throws a configuration error (for the log, at startup) when there is none. */
export function resolveMapping(operation: OperationId, config: EngineSettings): Mapping {
  const configured = config.replicateModels[operation];
  const template = config.replicateInputs[operation];
  if (template !== undefined || !isBuiltIn(operation)) {
    if (!configured) {
      throw new Error(
        `No Replicate model for ${operation}: set REPLICATE_MODEL_${envName(operation)}=owner/name:version`,
      );
    }
    return genericMapping(operation, parseModelRef(configured), template);
  }
  return { model: parseModelRef(configured ?? DEFAULT_MODELS[operation]), ...BUILT_IN[operation] };
}

function envName(operation: string): string {
  return operation.toUpperCase().replace(/-/g, '_');
}

/** Image in, image out: `{"image": "$image"}` unless a template says otherwise (plus `"mask"` for mask tools). */
function genericMapping(operation: OperationId, model: ModelRef, template: string | undefined): Mapping {
  let parsed: unknown;
  if (template === undefined) {
    const op = getOperation(operation);
    parsed = op.mask
      ? { image: '$image', mask: '$mask' }
      : op.input === 'prompt'
        ? { prompt: '$params.prompt' }
        : { image: '$image' };
  } else {
    try {
      parsed = JSON.parse(template);
    } catch {
      throw new Error(`REPLICATE_INPUT_${envName(operation)} is not valid JSON`);
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`REPLICATE_INPUT_${envName(operation)} must be a JSON object`);
  }
  const slots = new Set<FileSlot>();
  JSON.stringify(parsed, (_k, v) => {
    if (v === '$image' || v === '$image2' || v === '$mask') slots.add(v.slice(1) as FileSlot);
    return v;
  });
  const files = (['image', 'image2', 'mask'] as const).filter((s) => slots.has(s));
  return {
    model,
    files,
    buildInput: (f, p) => fill(parsed, f, p) as Record<string, unknown>,
  };
}

/** Replaces placeholders; a placeholder with nothing behind it (no mask uploaded, unknown param) drops its key. */
function fill(value: unknown, files: FileUrls, params: Params): unknown {
  if (typeof value === 'string') {
    if (value === '$image' || value === '$image2' || value === '$mask') return files[value.slice(1) as FileSlot];
    if (value.startsWith('$params.')) return params[value.slice('$params.'.length)];
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, files, params)).filter((v) => v !== undefined);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const filled = fill(v, files, params);
      if (filled !== undefined) out[k] = filled;
    }
    return out;
  }
  return value;
}
