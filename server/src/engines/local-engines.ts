import { isOperationId, type OperationId } from '@ai-editor/core';
import type { DEFAULT_MODELS } from './replicate/models.js';
import type { Engine, HostedEngine, LocalEngine, TaskEngine } from './types.js';

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
 * The engine pool's tasks that are not operations, each a module whose default export is an engine: select object
 * (the mask editor's click or box to a mask) and the photo analysis behind recommendations (face detection).
 */
export const LOCAL_TASKS = {
  'select-object': () => import('./select/task.js'),
  'photo-analysis': () => import('./analysis/task.js'),
} satisfies Record<string, () => Promise<{ default: TaskEngine }>>;

export type LocalTaskId = keyof typeof LOCAL_TASKS;

function isLocalTask(ref: string): ref is LocalTaskId {
  return Object.hasOwn(LOCAL_TASKS, ref);
}

/** What the engine pool runs: an operation's local engine or one of the tasks above. */
export type EngineRef = OperationId | LocalTaskId;

/**
 * Loads a local engine by its reference: an operation id (its engine above) or a task id (LOCAL_TASKS). Tests add
 * their own engines as `file:` URLs of modules whose default export is an engine.
 */
export async function loadLocalEngine(ref: string): Promise<HostedEngine> {
  if (isOperationId(ref)) {
    const load = LOCAL_ENGINES[ref];
    if (load === 'provider') throw new Error(`${ref} has no local engine`);
    return (await load()).default;
  }
  if (isLocalTask(ref)) return (await LOCAL_TASKS[ref]()).default;
  if (ref.startsWith('file:')) return ((await import(ref)) as { default: Engine }).default;
  throw new Error(`${ref} is neither an operation nor a task of the engine pool`);
}
