/** Tools that work on one part of the photo: a painted area, or the subject cut from its background. Their order on the site is the catalogue's (operations.ts). */

import { type OperationDef, uploadTutorial } from './entry.js';

export const OBJECT_REMOVAL = {
  id: 'object-removal',
  name: 'Object Removal',
  description: 'Paint over unwanted objects and people and let the background fill in.',
  route: '/features/object-removal',
  input: 'photo+mask',
  mask: 'required',
  status: 'working',
  guestAccess: false,
  params: [],
  cost: { fixedMs: 400, msPerMegapixel: 100, msPerMaskMegapixel: 2000, learnedFillMs: 700 },
  tryAgain: true,
  whyChoose: [
    'Brush, eraser, undo and zoom for precise masks',
    'Fills the gap from the surrounding texture',
    'Everything outside your mask stays untouched',
    'Full-resolution PNG output',
  ],
  tutorial: uploadTutorial('Paint over what you want removed; use the eraser and undo to correct the mask.'),
} as const satisfies OperationDef;

export const IMAGE_INPAINTING = {
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
  cost: { fixedMs: 570, msPerMegapixel: 75, msPerMaskMegapixel: 1400, learnedFillMs: 670 },
  tryAgain: true,
  whyChoose: [
    'Mends scratches, spots, text and dates from what surrounds them',
    'Precise brush masks',
    'Untouched outside the mask',
    'PNG output',
  ],
  tutorial: uploadTutorial(
    'Paint over the scratches, spots or text to repair. To remove a whole object, use Object Removal.',
  ),
} as const satisfies OperationDef;

export const BACKGROUND_REMOVAL = {
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
  cost: { fixedMs: 2270, msPerMegapixel: 170 },
  whyChoose: [
    'Clean edges around hair and fine detail',
    'Transparent PNG at the full size of your photo',
    'Works on people, products and animals',
    'Runs on our own server: your photo goes nowhere else',
  ],
  tutorial: uploadTutorial('Keep the background transparent, fill it with a colour or blur it; or take the mask.'),
} as const satisfies OperationDef;

export const IMAGE_SEGMENTATION = {
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
  cost: { fixedMs: 210, msPerMegapixel: 285 },
  whyChoose: ['People and objects', 'Overlay and mask outputs', 'Clean edges', 'PNG output'],
  tutorial: uploadTutorial(
    'Choose the subject, or leave it on Automatic: people when there are any, otherwise the main object.',
  ),
} as const satisfies OperationDef;
