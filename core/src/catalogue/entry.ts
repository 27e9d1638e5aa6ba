/**
 * What a catalogue entry is (operations.ts holds the catalogue): its input kinds, parameter kinds and fields, and
 * the pieces several entries share (the prompt, the size, the upload tutorial, the output parameters).
 */

import { IMAGE_FORMATS, type ImageFormatId } from '../formats.js';

/** What a tool takes: a prompt only, one photo, a photo and a painted mask, or two photos. */
export type InputKind = 'prompt' | 'photo' | 'photo+mask' | 'two-photos';

/** 'working' tools have an engine in this code base; 'coming-soon' ones show a placeholder page. */
export type OperationStatus = 'working' | 'coming-soon';

interface ParamBase {
  name: string;
  label: string;
  help?: string;
  /** 'output': how the result is delivered (format, quality), shown in the tool page's Output section. */
  group?: 'output';
}
export interface TextParam extends ParamBase {
  kind: 'text';
  default: string;
  required: boolean;
  maxLength: number;
  multiline?: boolean;
  placeholder?: string;
  /** Style transfer: the prompt must contain this word exactly once. */
  mustContainWordOnce?: string;
}
export interface NumberParam extends ParamBase {
  kind: 'number';
  default: number;
  min: number;
  max: number;
  step: number;
  /** Shown as a slider rather than a number box. */
  slider?: boolean;
}
export interface BooleanParam extends ParamBase {
  kind: 'boolean';
  default: boolean;
}
export interface SelectParam extends ParamBase {
  kind: 'select';
  default: string;
  options: readonly { value: string; label: string }[];
  /** Also accepts a colour `#rrggbb` besides the options (background removal's background). */
  color?: boolean;
}
export type ParamDef = TextParam | NumberParam | BooleanParam | SelectParam;

/**
 * How long one job is expected to take on the local engines, warm, on an idle 2-core machine with two inference
 * threads: a fixed part plus a part per megapixel of the photo, and for the mask tools the learned fill's time when
 * the painted area is small enough for it (durations.ts `expectedMs` reads it). Fitted with `npm run bench:estimates`
 * (every local operation on a small, a medium and a 12 MP photo, the mask tools with a small and a large mask; its
 * fit aims between the job's CPU time and half of it, the idle time on one thread or two); remote engines are the
 * provider's typical time.
 */
export interface ExpectedCost {
  fixedMs: number;
  msPerMegapixel: number;
  /** Mask tools: the learned fill's time, added when at most LEARNED_FILL_MAX_PIXELS are painted. */
  learnedFillMs?: number;
  /** Mask tools: the time per megapixel painted (the patch fill's work follows the hole's area). */
  msPerMaskMegapixel?: number;
  /**
   * The per-megapixel part times `times` when parameter `param` is `value`: a tool whose work follows its result
   * (face enhancement's 2x upscales the whole photo; super-resolution's 4x writes four times the pixels of its 2x).
   */
  scaledWhen?: { param: string; value: string; times: number };
}

/**
 * The size of a tool's result (output-size.ts `outputSize` reads it); a tool without one keeps the photo's size.
 * `scaleParam`: the photo times that parameter (an upscaler); `sizeParams`: the width and height parameters (a prompt
 * tool); `side`: a fixed square.
 */
export type OutputSizeRule =
  | { scaleParam: string }
  | { sizeParams: readonly [width: string, height: string] }
  | { side: number };

/** What every catalogue entry must look like; `Operation` is the same with its id narrowed to the known ones. */
export interface OperationDef {
  id: string;
  name: string;
  description: string;
  route: string;
  input: InputKind;
  /** Photo restoration takes an optional scratch mask; mask-driven tools require theirs. */
  mask?: 'required' | 'optional';
  /** The tool's page selects objects by clicking them (Select object): every mask tool, and Segmentation. */
  selects?: true;
  status: OperationStatus;
  guestAccess: boolean;
  popular?: boolean;
  params: readonly ParamDef[];
  cost: ExpectedCost;
  outputSize?: OutputSizeRule;
  /**
   * 'Try another fill': the result may be tried again for free on the same photo and mask, a fill made here whose
   * source choices vary with each try (rules.ts `mayTryAgain`).
   */
  tryAgain?: true;
  whyChoose: readonly string[];
  tutorial: readonly { title: string; text: string }[];
}

/** The prompt of the text-to-image tools. */
export const PROMPT = {
  kind: 'text',
  name: 'prompt',
  label: 'Prompt',
  default: '',
  required: true,
  maxLength: 2000,
  multiline: true,
  placeholder: 'Describe the image you want to create...',
  help: 'Enter a prompt before generating',
} as const satisfies TextParam;

/** A generated image's width or height. */
export const SIZE = <N extends 'width' | 'height'>(name: N, label: string) =>
  ({ kind: 'number', name, label, default: 768, min: 256, max: 1024, step: 64 }) as const satisfies NumberParam;

/** A colour `#rrggbb`, as a select parameter with `color` accepts it. */
export const COLOR_PATTERN = '^#[0-9a-fA-F]{6}$';

/**
 * How every tool's results are delivered: one PNG is kept per result, and the result and download addresses serve
 * it in the format asked for at submit (a JPEG of a transparent result is flattened on white).
 */
export const OUTPUT_PARAMS = [
  {
    kind: 'select',
    name: 'format',
    label: 'Format',
    group: 'output',
    default: 'png',
    options: IMAGE_FORMATS.map((f) => ({ value: f.id, label: f.label })),
  },
  {
    kind: 'number',
    name: 'quality',
    label: 'Quality',
    help: 'For JPEG and WebP: higher is sharper and larger.',
    group: 'output',
    default: 90,
    min: 1,
    max: 100,
    step: 1,
    slider: true,
  },
] as const satisfies readonly ParamDef[];

export type OutputFormat = ImageFormatId;

/** A photo tool's tutorial: upload, its own adjusting step (`choose`), download. */
export const uploadTutorial = (choose: string) => [
  { title: 'Upload', text: 'Drop a JPEG, PNG or WebP photo of up to 10MB on the upload area, or click it to browse.' },
  { title: 'Adjust', text: choose },
  { title: 'Download', text: 'Watch the progress, compare before and after, and download the PNG result.' },
];
