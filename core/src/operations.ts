/**
 * The operation catalogue: the one description of every tool, read by the web app (pages, controls, tutorial)
 * and by the server (validation, engines, rules). Adding an operation is one entry here plus one engine file
 * (docs/engines.md). The entries are kept literal (`as const`), so that each operation's parameters have a precise
 * type (`ParamsOf`): engines receive `{ strength: number }`, not a bag of strings.
 */

import { IMAGE_FORMATS, type ImageFormatId } from './formats.js';

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

/** What every catalogue entry must look like; `Operation` is the same with its id narrowed to the known ones. */
interface OperationDef {
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
  whyChoose: readonly string[];
  tutorial: readonly { title: string; text: string }[];
}

const PROMPT = {
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

const SIZE = <N extends 'width' | 'height'>(name: N, label: string) =>
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

const uploadTutorial = (choose: string) => [
  { title: 'Upload', text: 'Drop a JPEG, PNG or WebP photo of up to 10MB on the upload area, or click it to browse.' },
  { title: 'Adjust', text: choose },
  { title: 'Download', text: 'Watch the progress, compare before and after, and download the PNG result.' },
];

const CATALOGUE = [
  {
    id: 'face-enhancement',
    name: 'Face Enhancement',
    description: 'Restore and sharpen faces in your photos while keeping everything else untouched.',
    route: '/features/face-enhancement',
    input: 'photo',
    status: 'working',
    guestAccess: true,
    popular: true,
    params: [
      {
        kind: 'select',
        name: 'scale',
        label: 'Output size',
        default: '1',
        options: [
          { value: '1', label: 'Original size' },
          { value: '2', label: 'Upscale 2x' },
        ],
      },
    ],
    whyChoose: [
      'Finds every face in the photo automatically',
      'Sharpens eyes, skin and hair without a plastic look',
      'Leaves the rest of your photo exactly as it was',
      'Free to try, no account needed',
    ],
    tutorial: uploadTutorial('Choose whether to keep the original size or upscale the whole photo 2x.'),
  },
  {
    id: 'text2img',
    name: 'Text to Image',
    description: 'Turn a written description into a detailed image with SDXL.',
    route: '/features/text2img',
    input: 'prompt',
    status: 'working',
    guestAccess: false,
    params: [
      PROMPT,
      SIZE('width', 'Width'),
      SIZE('height', 'Height'),
      {
        kind: 'select',
        name: 'refine',
        label: 'Refiner',
        default: 'expert_ensemble_refiner',
        options: [
          { value: 'expert_ensemble_refiner', label: 'Expert ensemble refiner' },
          { value: 'base_image_refiner', label: 'Base image refiner' },
          { value: 'no_refiner', label: 'No refiner' },
        ],
      },
      { kind: 'boolean', name: 'apply_watermark', label: 'Apply watermark', default: false },
      { kind: 'number', name: 'num_inference_steps', label: 'Steps', default: 25, min: 1, max: 50, step: 1 },
    ],
    whyChoose: [
      'High-resolution 768x768 images from a sentence',
      'Expert refiner for crisp detail',
      'No watermark on your results',
      'Ready in well under a minute',
    ],
    tutorial: [
      { title: 'Describe', text: 'Write what you want to see: subject, setting, light and style.' },
      { title: 'Generate', text: 'Press Generate and watch the progress.' },
      { title: 'Download', text: 'Download the PNG, or refine your prompt and try again.' },
    ],
  },
  {
    id: 'text-to-image-diffusion',
    name: 'Text to Image (Diffusion)',
    description: 'Generate images with Stable Diffusion and full control over guidance and steps.',
    route: '/features/text-to-image-diffusion',
    input: 'prompt',
    status: 'working',
    guestAccess: false,
    params: [
      PROMPT,
      SIZE('width', 'Width'),
      SIZE('height', 'Height'),
      {
        kind: 'select',
        name: 'scheduler',
        label: 'Scheduler',
        default: 'K_EULER',
        options: [
          { value: 'K_EULER', label: 'Euler' },
          { value: 'K_EULER_ANCESTRAL', label: 'Euler ancestral' },
          { value: 'DPMSolverMultistep', label: 'DPM-Solver multistep' },
          { value: 'DDIM', label: 'DDIM' },
          { value: 'PNDM', label: 'PNDM' },
          { value: 'KLMS', label: 'KLMS' },
        ],
      },
      { kind: 'number', name: 'num_outputs', label: 'Outputs', default: 1, min: 1, max: 4, step: 1 },
      {
        kind: 'number',
        name: 'guidance_scale',
        label: 'Guidance scale',
        default: 7.5,
        min: 1,
        max: 20,
        step: 0.5,
        slider: true,
      },
      {
        kind: 'number',
        name: 'num_inference_steps',
        label: 'Inference steps',
        default: 50,
        min: 10,
        max: 150,
        step: 1,
        slider: true,
      },
    ],
    whyChoose: [
      'Fine control over guidance and sampling steps',
      'Choice of schedulers',
      'Consistent 768x768 output',
      'Great for experimenting with styles',
    ],
    tutorial: [
      { title: 'Describe', text: 'Write a prompt describing the image.' },
      { title: 'Tune', text: 'Raise guidance to follow the prompt more closely; more steps add detail.' },
      { title: 'Generate', text: 'Press Generate, then download the PNG.' },
    ],
  },
  {
    id: 'object-removal',
    name: 'Object Removal',
    description: 'Paint over unwanted objects and people and let the background fill in.',
    route: '/features/object-removal',
    input: 'photo+mask',
    mask: 'required',
    status: 'working',
    guestAccess: false,
    params: [],
    whyChoose: [
      'Brush, eraser, undo and zoom for precise masks',
      'Fills the gap from the surrounding texture',
      'Everything outside your mask stays untouched',
      'Full-resolution PNG output',
    ],
    tutorial: uploadTutorial('Paint over what you want removed; use the eraser and undo to correct the mask.'),
  },
  {
    id: 'background-removal',
    name: 'Background Removal',
    description: 'Cut out the subject and get a transparent PNG in seconds.',
    route: '/features/background-removal',
    input: 'photo',
    status: 'working',
    guestAccess: false,
    params: [
      {
        kind: 'select',
        name: 'background',
        label: 'Background',
        help: 'Transparent, a colour (#rrggbb), or the photo itself blurred.',
        default: 'transparent',
        color: true,
        options: [
          { value: 'transparent', label: 'Transparent' },
          { value: 'blur', label: 'Blurred photo' },
        ],
      },
      {
        kind: 'select',
        name: 'output',
        label: 'Result',
        default: 'image',
        options: [
          { value: 'image', label: 'Cut-out image' },
          { value: 'mask', label: 'Mask (greyscale)' },
        ],
      },
      { kind: 'boolean', name: 'crop', label: 'Crop to the subject', default: false },
    ],
    whyChoose: [
      'Clean edges around hair and fine detail',
      'Transparent PNG at the full size of your photo',
      'Works on people, products and animals',
      'Runs on our own server: your photo goes nowhere else',
    ],
    tutorial: uploadTutorial('Keep the background transparent, fill it with a colour or blur it; or take the mask.'),
  },
  {
    id: 'super-resolution',
    name: 'Super Resolution',
    description: 'Upscale photos 2x or 4x with Real-ESRGAN and recover fine detail.',
    route: '/features/super-resolution',
    input: 'photo',
    status: 'working',
    guestAccess: false,
    params: [
      {
        kind: 'select',
        name: 'scale',
        label: 'Scale',
        default: '2',
        options: [
          { value: '2', label: '2x' },
          { value: '4', label: '4x' },
        ],
      },
    ],
    whyChoose: [
      'Sharper than ordinary resizing',
      '2x or 4x enlargement',
      'No seams, even on large photos',
      'PNG output with no quality loss',
    ],
    tutorial: uploadTutorial('Pick 2x or 4x. Larger scales take longer.'),
  },
  {
    id: 'colorization',
    name: 'Colorization',
    description: 'Bring black-and-white photos to life with natural colours.',
    route: '/features/colorization',
    input: 'photo',
    status: 'working',
    guestAccess: false,
    params: [],
    whyChoose: [
      'Natural skin tones and skies',
      'Works on old family photos',
      'Keeps every detail of the original',
      'PNG output',
    ],
    tutorial: uploadTutorial('Nothing to set: colours are chosen automatically.'),
  },
  {
    id: 'denoising',
    name: 'Denoising',
    description: 'Remove grain and sensor noise while keeping edges and texture.',
    route: '/features/denoising',
    input: 'photo',
    status: 'working',
    guestAccess: false,
    params: [
      { kind: 'number', name: 'strength', label: 'Strength', default: 50, min: 1, max: 100, step: 1, slider: true },
    ],
    whyChoose: [
      'Cleans high-ISO and low-light noise',
      'Edges and texture stay crisp',
      'Adjustable strength',
      'PNG output',
    ],
    tutorial: uploadTutorial('Raise the strength for very grainy photos, lower it to keep fine texture.'),
  },
  {
    id: 'style-transfer',
    name: 'Style Transfer',
    description: 'Restyle a portrait in any artistic style you describe.',
    route: '/features/style-transfer',
    input: 'photo',
    status: 'working',
    guestAccess: false,
    params: [
      {
        kind: 'text',
        name: 'prompt',
        label: 'Prompt',
        default: 'A portrait of a person img, in the style of a vibrant oil painting, masterpiece',
        required: true,
        maxLength: 2000,
        multiline: true,
        mustContainWordOnce: 'img',
        help: "The prompt must contain the word 'img' (the person in your photo) exactly once.",
      },
      {
        kind: 'text',
        name: 'negative_prompt',
        label: 'Negative prompt',
        default:
          'nsfw, lowres, bad anatomy, bad hands, text, error, missing fingers, extra digit, fewer digits, cropped, worst quality, low quality, normal quality, jpeg artifacts, signature, watermark, username, blurry',
        required: false,
        maxLength: 2000,
        multiline: true,
      },
      {
        kind: 'number',
        name: 'style_strength_ratio',
        label: 'Style strength',
        default: 35,
        min: 1,
        max: 100,
        step: 1,
        slider: true,
      },
      { kind: 'number', name: 'num_steps', label: 'Steps', default: 50, min: 20, max: 100, step: 1, slider: true },
      { kind: 'number', name: 'num_outputs', label: 'Outputs', default: 1, min: 1, max: 4, step: 1 },
    ],
    whyChoose: [
      'Keeps the person recognisable',
      'Any style you can describe',
      'Up to four variations at once',
      'PNG output',
    ],
    tutorial: uploadTutorial("Describe the style; keep the word 'img' where the person belongs in the sentence."),
  },
  {
    id: 'cartoonization',
    name: 'Cartoonization',
    description: 'Turn photos into cartoons with flat colours and clean outlines.',
    route: '/features/cartoonization',
    input: 'photo',
    status: 'working',
    guestAccess: false,
    params: [],
    whyChoose: ['Flat colour regions', 'Clean outlines', 'Faces stay recognisable', 'PNG output'],
    tutorial: uploadTutorial('Nothing to set.'),
  },
  {
    id: 'pencil-sketch',
    name: 'Pencil Sketch',
    description: 'Turn photos into graphite or coloured-pencil drawings.',
    route: '/features/pencil-sketch',
    input: 'photo',
    status: 'working',
    guestAccess: false,
    params: [
      {
        kind: 'select',
        name: 'style',
        label: 'Style',
        default: 'graphite',
        options: [
          { value: 'graphite', label: 'Graphite' },
          { value: 'colored', label: 'Coloured pencil' },
        ],
      },
    ],
    whyChoose: ['Graphite or coloured pencil', 'Keeps the important edges', 'Ready in a second', 'PNG output'],
    tutorial: uploadTutorial('Choose graphite or coloured pencil.'),
  },
  {
    id: 'hdr-enhancement',
    name: 'HDR Enhancement',
    description: 'Lift shadows and local contrast for a balanced, vivid photo.',
    route: '/features/hdr',
    input: 'photo',
    status: 'working',
    guestAccess: false,
    params: [
      { kind: 'number', name: 'strength', label: 'Strength', default: 50, min: 1, max: 100, step: 1, slider: true },
    ],
    whyChoose: ['Brighter shadows', 'More local contrast', 'No colour shift', 'No new blown highlights'],
    tutorial: uploadTutorial('Raise the strength for darker photos.'),
  },
  {
    id: 'face-aging',
    name: 'Face Aging',
    description: 'See how a face might look at another age.',
    route: '/features/face-aging',
    input: 'photo',
    status: 'working',
    guestAccess: false,
    params: [
      { kind: 'number', name: 'target_age', label: 'Target age', default: 70, min: 10, max: 90, step: 1, slider: true },
    ],
    whyChoose: ['Any age from 10 to 90', 'Keeps identity', 'Works on portraits', 'PNG output'],
    tutorial: uploadTutorial('Pick the age to show. The result is a close-up of the face, 1024x1024.'),
  },
  {
    id: 'image-inpainting',
    name: 'Inpainting',
    description: 'Repair small damaged areas (scratches, spots, text, dates) by painting over them.',
    route: '/features/inpainting',
    input: 'photo+mask',
    mask: 'required',
    status: 'working',
    guestAccess: false,
    params: [
      {
        kind: 'text',
        name: 'prompt',
        label: 'Prompt (model provider only)',
        default: '',
        required: false,
        maxLength: 500,
        placeholder: 'What should appear in the painted area, e.g. a wooden bench',
        help:
          'Only used where this server runs inpainting on its model provider (Replicate, with a token): the painted ' +
          'area is then filled with what you describe. The server’s own fill repairs the area from what surrounds it ' +
          'and does not read the prompt.',
      },
    ],
    whyChoose: [
      'Mends scratches, spots, text and dates from what surrounds them',
      'Precise brush masks',
      'Untouched outside the mask',
      'PNG output',
    ],
    tutorial: uploadTutorial(
      'Paint over the scratches, spots or text to repair. To remove a whole object, use Object Removal.',
    ),
  },
  {
    id: 'image-segmentation',
    name: 'Segmentation',
    description: 'Separate the subject from the background and get its mask.',
    route: '/features/segmentation',
    input: 'photo',
    selects: true,
    status: 'working',
    guestAccess: false,
    params: [
      {
        kind: 'select',
        name: 'subject',
        label: 'Subject',
        help: 'Automatic picks the people in the photo when there are any, otherwise its main object.',
        default: 'auto',
        options: [
          { value: 'auto', label: 'Automatic' },
          { value: 'person', label: 'People' },
          { value: 'object', label: 'Main object' },
        ],
      },
    ],
    whyChoose: ['People and objects', 'Overlay and mask outputs', 'Clean edges', 'PNG output'],
    tutorial: uploadTutorial(
      'Choose the subject, or leave it on Automatic: people when there are any, otherwise the main object.',
    ),
  },
  {
    id: 'face-swap',
    name: 'Face Swap',
    description: 'Put the face from one photo onto the person in another.',
    route: '/features/face-swap',
    input: 'two-photos',
    status: 'working',
    guestAccess: false,
    params: [],
    whyChoose: ['Two photos in, one out', 'Matches skin tone and light', 'Works on portraits', 'PNG output'],
    tutorial: [
      { title: 'Target', text: 'Upload the photo whose person should get a new face.' },
      { title: 'Face', text: 'Upload a clear photo of the face to use.' },
      { title: 'Swap', text: 'Submit and download the PNG.' },
    ],
  },
  {
    id: 'photo-restoration',
    name: 'Photo Restoration',
    description: 'Repair old photos: remove scratches, dust and noise, and sharpen faces.',
    route: '/features/restoration',
    input: 'photo',
    mask: 'optional',
    status: 'working',
    guestAccess: false,
    params: [
      {
        kind: 'number',
        name: 'scratch_sensitivity',
        label: 'Scratch and dust detection',
        help: 'Higher finds fainter marks; 0 repairs only what you paint.',
        default: 50,
        min: 0,
        max: 100,
        step: 1,
        slider: true,
      },
      {
        kind: 'number',
        name: 'denoise',
        label: 'Grain reduction',
        help: '0 keeps the grain.',
        default: 50,
        min: 0,
        max: 100,
        step: 1,
        slider: true,
      },
      { kind: 'boolean', name: 'enhance_faces', label: 'Enhance faces', default: true },
    ],
    whyChoose: ['Finds scratches and dust', 'Reduces grain', 'Sharpens faces', 'Never invents colour'],
    tutorial: uploadTutorial('Optionally paint over scratches the automatic detection misses.'),
  },
] as const satisfies readonly OperationDef[];

type Entry = (typeof CATALOGUE)[number];
export type OperationId = Entry['id'];

export interface Operation<Id extends OperationId = OperationId> extends OperationDef {
  id: Id;
}

/** Every operation makes images: each takes the output parameters after its own. */
export const OPERATIONS: readonly Operation[] = CATALOGUE.map((op) => ({
  ...op,
  params: [...op.params, ...OUTPUT_PARAMS],
}));
export const OPERATION_IDS: readonly OperationId[] = OPERATIONS.map((op) => op.id);

/** One operation's catalogue entry with its literal types (its input kind, mask rule and parameters). */
export type CatalogueEntry<Id extends OperationId> = Extract<Entry, { id: Id }>;

/** The value type of one parameter: numbers, booleans, the union of a select's option values, or text. */
type ValueOf<P extends ParamDef> = P extends NumberParam
  ? number
  : P extends BooleanParam
    ? boolean
    : P extends { color: true }
      ? string
      : P extends { kind: 'select'; options: readonly { value: infer V }[] }
        ? V
        : string;

/** One operation's parameters as parseParams returns them, e.g. `ParamsOf<'denoising'>` is `{ strength: number }`. */
export type ParamsOf<Id extends OperationId> = Id extends OperationId
  ? { [P in [...CatalogueEntry<Id>['params'], ...typeof OUTPUT_PARAMS][number] as P['name']]: ValueOf<P> }
  : never;

const BY_ID = new Map<string, Operation>(OPERATIONS.map((op) => [op.id, op]));

export function isOperationId(id: unknown): id is OperationId {
  return typeof id === 'string' && BY_ID.has(id);
}

/** Whether a tool's page uses Select object (a mask tool, or one that declares it). */
export function usesSelectObject(op: Operation): boolean {
  return op.mask !== undefined || op.selects === true;
}

export function getOperation<Id extends OperationId>(id: Id): Operation<Id>;
export function getOperation(id: string): Operation | undefined;
export function getOperation(id: string): Operation | undefined {
  return BY_ID.get(id);
}

export function operationByRoute(route: string): Operation | undefined {
  return OPERATIONS.find((op) => op.route === route);
}

/** The multipart file fields an operation takes, in order; `file` is always the main photo. */
export function fileFields(op: Operation): { name: 'file' | 'mask' | 'file2'; required: boolean }[] {
  const fields: { name: 'file' | 'mask' | 'file2'; required: boolean }[] = [];
  if (op.input !== 'prompt') fields.push({ name: 'file', required: true });
  if (op.mask) fields.push({ name: 'mask', required: op.mask === 'required' });
  if (op.input === 'two-photos') fields.push({ name: 'file2', required: true });
  return fields;
}
