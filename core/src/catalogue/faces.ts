/** Face and portrait tools. Their order on the site is the catalogue's (operations.ts). */

import { type OperationDef, uploadTutorial } from './entry.js';

export const FACE_ENHANCEMENT = {
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
  cost: { fixedMs: 450, msPerMegapixel: 250, scaledWhen: { param: 'scale', value: '2', times: 3 } },
  outputSize: { scaleParam: 'scale' },
  whyChoose: [
    'Finds every face in the photo automatically',
    'Sharpens eyes, skin and hair without a plastic look',
    'Leaves the rest of your photo exactly as it was',
    'Free to try, no account needed',
  ],
  tutorial: uploadTutorial('Choose whether to keep the original size or upscale the whole photo 2x.'),
} as const satisfies OperationDef;

export const STYLE_TRANSFER = {
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
  cost: { fixedMs: 30_000, msPerMegapixel: 0 },
  whyChoose: [
    'Keeps the person recognisable',
    'Any style you can describe',
    'Up to four variations at once',
    'PNG output',
  ],
  tutorial: uploadTutorial("Describe the style; keep the word 'img' where the person belongs in the sentence."),
} as const satisfies OperationDef;

export const FACE_AGING = {
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
  cost: { fixedMs: 20_000, msPerMegapixel: 0 },
  /** Its provider returns a close-up of the face at this size. */
  outputSize: { side: 1024 },
  whyChoose: ['Any age from 10 to 90', 'Keeps identity', 'Works on portraits', 'PNG output'],
  tutorial: uploadTutorial('Pick the age to show. The result is a close-up of the face, 1024x1024.'),
} as const satisfies OperationDef;

export const FACE_SWAP = {
  id: 'face-swap',
  name: 'Face Swap',
  description: 'Put the face from one photo onto the person in another.',
  route: '/features/face-swap',
  input: 'two-photos',
  status: 'working',
  guestAccess: false,
  params: [],
  cost: { fixedMs: 20_000, msPerMegapixel: 0 },
  whyChoose: ['Two photos in, one out', 'Matches skin tone and light', 'Works on portraits', 'PNG output'],
  tutorial: [
    { title: 'Target', text: 'Upload the photo whose person should get a new face.' },
    { title: 'Face', text: 'Upload a clear photo of the face to use.' },
    { title: 'Swap', text: 'Submit and download the PNG.' },
  ],
} as const satisfies OperationDef;
