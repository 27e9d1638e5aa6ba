/** The messages between the engine pool (adapters/engine-pool.ts) and an engine host process (host.ts). */
import type { ErrorCode, Lane } from '@ai-editor/core';
import type { EngineInput, Progress, TaskInput } from '../types.js';

/** What a host is told when it starts (in its environment, as JSON). */
export interface HostOptions {
  /** Quick hosts take short work only and run at a higher CPU priority than heavy ones (adapters/scheduling.ts). */
  lane: Lane;
  /** onnxruntime intra-op threads per engine. */
  threads: number;
  /** Engines release their models after this long without a job; 0 keeps them. */
  idleMs: number;
  /** Engines (local-engines.ts references) loaded and warmed in the background when the host starts. */
  preload: string[];
  /** The server's output-pixel limit, for core's checkOutputSize; absent means the catalogue's default. */
  maxOutputPixels?: number;
  /** Where engines cache converted model files (the server's MODEL_CACHE_DIR). */
  modelCacheDir?: string;
}

export const HOST_OPTIONS_ENV = 'AIE_ENGINE_HOST_OPTIONS';

/** Pool → host: run one job. A host runs one job at a time. */
export interface RunCommand {
  type: 'run';
  task: number;
  /** The engine to run, as loadLocalEngine takes it: an operation id, a task id, or an engine module's URL. */
  module: string;
  /** An operation's job, or a task's photo and settings. */
  input: EngineInput | TaskInput;
}

/** Pool → host: the photo with this key was deleted or expired; engines drop what they keep about it. */
export interface ForgetCommand {
  type: 'forget';
  photo: string;
}

export type PoolCommand = RunCommand | ForgetCommand;

/**
 * Host → pool. Engine errors travel as data: a host that exits mid-job always means the host itself died. A failure
 * carries the catalogue's code and message: the engine's own for a refusal (an AppError), ENGINE_FAILED for a
 * fault, whose raw error goes in `fault` for the pool's log and never further.
 */
export type HostMessage =
  | { type: 'ready' }
  /** Every engine of `preload` is warmed (or failed to): from now on a first job costs what a later one does. */
  | { type: 'warm' }
  /** The engine is loaded and starts: the job's time limit counts from here. */
  | { type: 'started'; task: number }
  | ({ type: 'progress'; task: number } & Progress)
  | { type: 'done'; task: number; images: Uint8Array[]; metadata: Record<string, unknown> }
  | { type: 'failed'; task: number; code: ErrorCode; message: string; fault?: string }
  /** The engine modules whose models are in memory now (after a load, a warm-up or an idle release). */
  | { type: 'loaded'; modules: string[] };
