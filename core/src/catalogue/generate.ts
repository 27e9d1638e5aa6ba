/** Prompt tools: an image made from a description. Their order on the site is the catalogue's (operations.ts). */

import { type OperationDef, PROMPT, SIZE } from './entry.js';

export const TEXT2IMG = {
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
  cost: { fixedMs: 20_000, msPerMegapixel: 0 },
  outputSize: { sizeParams: ['width', 'height'] },
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
} as const satisfies OperationDef;

export const TEXT_TO_IMAGE_DIFFUSION = {
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
  cost: { fixedMs: 20_000, msPerMegapixel: 0 },
  outputSize: { sizeParams: ['width', 'height'] },
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
} as const satisfies OperationDef;
