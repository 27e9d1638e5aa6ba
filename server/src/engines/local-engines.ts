import { isOperationId, type OperationId } from '@ai-editor/core';
import type { DEFAULT_MODELS } from './replicate/models.js';
import type { Engine, LocalEngine } from './types.js';

type ProviderOnly = keyof typeof DEFAULT_MODELS;

/**
 * Every operation of the catalogue, with its local engine (imported when first needed, in an engine host) or
 * `'provider'` when only the provider (Replicate) runs it. The type holds each operation to its line: a new
 * operation fails the typecheck until it has one, a misspelt module or one that defines another operation's
 * engine fails it too, and `'provider'` is accepted only where the provider has a built-in model.
 */
export const LOCAL_ENGINES: {
  [Id in OperationId]: (() => Promise<{ default: LocalEngine<Id> }>) | (Id extends ProviderOnly ? 'provider' : never);
} = {
  'face-enhancement': () => import('./local/face-enhancement.js'),
  text2img: 'provider',
  'text-to-image-diffusion': 'provider',
  'object-removal': () => import('./local/object-removal.js'),
  'background-removal': () => import('./local/background-removal.js'),
  'super-resolution': () => import('./local/super-resolution.js'),
  colorization: 'provider',
  denoising: () => import('./local/denoising.js'),
  'style-transfer': 'provider',
  cartoonization: () => import('./local/cartoonization.js'),
  'pencil-sketch': () => import('./local/pencil-sketch.js'),
  'hdr-enhancement': () => import('./local/hdr-enhancement.js'),
  'face-aging': 'provider',
  'image-inpainting': () => import('./local/image-inpainting.js'),
  'image-segmentation': () => import('./local/image-segmentation.js'),
  'face-swap': 'provider',
  'photo-restoration': () => import('./local/photo-restoration.js'),
};

export function hasLocalEngine(operation: OperationId): boolean {
  return LOCAL_ENGINES[operation] !== 'provider';
}

/**
 * Loads a local engine by its reference: an operation id (its engine above), or the URL of a module whose default
 * export is an engine that is not an operation's (select object's and the photo analysis's helpers under
 * services/, the test engines).
 */
export async function loadLocalEngine(ref: string): Promise<Engine> {
  const load = isOperationId(ref) ? LOCAL_ENGINES[ref] : undefined;
  if (load === 'provider') throw new Error(`${ref} has no local engine`);
  const module = (await (load ? load() : import(ref))) as { default: Engine };
  return module.default;
}
