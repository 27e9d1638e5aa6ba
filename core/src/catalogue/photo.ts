/** Whole-photo tools: size, colour, noise, light, drawing styles and old-photo repair. Their order on the site is the catalogue's (operations.ts). */

import { type OperationDef, uploadTutorial } from './entry.js';

export const SUPER_RESOLUTION = {
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
  cost: { fixedMs: 0, msPerMegapixel: 5700, scaledWhen: { param: 'scale', value: '4', times: 1.35 } },
  outputSize: { scaleParam: 'scale' },
  whyChoose: [
    'Sharper than ordinary resizing',
    '2x or 4x enlargement',
    'No seams, even on large photos',
    'PNG output with no quality loss',
  ],
  tutorial: uploadTutorial('Pick 2x or 4x. Larger scales take longer.'),
} as const satisfies OperationDef;

export const COLORIZATION = {
  id: 'colorization',
  name: 'Colorization',
  description: 'Bring black-and-white photos to life with natural colours.',
  route: '/features/colorization',
  input: 'photo',
  status: 'working',
  guestAccess: false,
  params: [],
  cost: { fixedMs: 15_000, msPerMegapixel: 0 },
  whyChoose: [
    'Natural skin tones and skies',
    'Works on old family photos',
    'Keeps every detail of the original',
    'PNG output',
  ],
  tutorial: uploadTutorial('Nothing to set: colours are chosen automatically.'),
} as const satisfies OperationDef;

export const DENOISING = {
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
  cost: { fixedMs: 160, msPerMegapixel: 920 },
  whyChoose: [
    'Cleans high-ISO and low-light noise',
    'Edges and texture stay crisp',
    'Adjustable strength',
    'PNG output',
  ],
  tutorial: uploadTutorial('Raise the strength for very grainy photos, lower it to keep fine texture.'),
} as const satisfies OperationDef;

export const CARTOONIZATION = {
  id: 'cartoonization',
  name: 'Cartoonization',
  description: 'Turn photos into cartoons with flat colours and clean outlines.',
  route: '/features/cartoonization',
  input: 'photo',
  status: 'working',
  guestAccess: false,
  params: [],
  cost: { fixedMs: 90, msPerMegapixel: 60 },
  whyChoose: ['Flat colour regions', 'Clean outlines', 'Faces stay recognisable', 'PNG output'],
  tutorial: uploadTutorial('Nothing to set.'),
} as const satisfies OperationDef;

export const PENCIL_SKETCH = {
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
  cost: { fixedMs: 20, msPerMegapixel: 110 },
  whyChoose: ['Graphite or coloured pencil', 'Keeps the important edges', 'Ready in a second', 'PNG output'],
  tutorial: uploadTutorial('Choose graphite or coloured pencil.'),
} as const satisfies OperationDef;

export const HDR_ENHANCEMENT = {
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
  cost: { fixedMs: 100, msPerMegapixel: 160 },
  whyChoose: ['Brighter shadows', 'More local contrast', 'No colour shift', 'No new blown highlights'],
  tutorial: uploadTutorial('Raise the strength for darker photos.'),
} as const satisfies OperationDef;

export const PHOTO_RESTORATION = {
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
  cost: { fixedMs: 1000, msPerMegapixel: 1880 },
  whyChoose: ['Finds scratches and dust', 'Reduces grain', 'Sharpens faces', 'Never invents colour'],
  tutorial: uploadTutorial('Optionally paint over scratches the automatic detection misses.'),
} as const satisfies OperationDef;
