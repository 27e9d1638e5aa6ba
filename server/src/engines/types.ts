import type { CatalogueEntry, OperationId, Params, ParamsOf } from '@ai-editor/core';

/**
 * What an engine is handed: the uploaded bytes as they arrived (JPEG, PNG or WebP) and the job's parameters as
 * stored (checked by the catalogue at submit time). Local engines see it through `defineEngine` as a `Job`.
 */
export interface EngineInput {
  operation: OperationId;
  /** The main photo (`file`); absent for prompt-only operations. */
  image?: Buffer;
  /** The painted mask (`mask`), white = the area to work on. */
  mask?: Buffer;
  /** The second photo (`file2`, face swap's face). */
  image2?: Buffer;
  params: Params;
  /** Another try of the same job ('Try another fill'): 1, 2, ...; the fills choose other sources. */
  variation?: number;
}

/**
 * What the engine pool hands a task that is not an operation (LOCAL_TASKS: select object, photo analysis): a photo
 * (and a painted mask, for the fit of a mask) and the task's settings in `params`.
 */
export interface TaskInput {
  image: Buffer;
  /** A painted mask to work from (Fit mask to object), white = painted. */
  mask?: Buffer;
  params: Params;
  /** The operation the task is done for (the mask tool a selection is for, the job's tool), for the log. */
  forOperation: OperationId;
}

/** The files an operation takes, typed from its catalogue entry: a photo tool's `image` is always there. */
type FilesOf<E extends { input: string; mask?: string }> = (E['input'] extends 'prompt' ? unknown : { image: Buffer }) &
  (E extends { mask: 'required' } ? { mask: Buffer } : E extends { mask: 'optional' } ? { mask?: Buffer } : unknown) &
  (E['input'] extends 'two-photos' ? { image2: Buffer } : unknown);

/** One job as a local engine's `run` receives it: its files and its parameters parsed and defaulted by the catalogue. */
export type Job<Id extends OperationId> = { operation: Id; params: ParamsOf<Id> } & FilesOf<CatalogueEntry<Id>>;

/** What an engine returns: one or more PNGs (no metadata carried over) and notes for the job's metadata. */
export interface EngineOutput {
  images: Buffer[];
  metadata?: Record<string, unknown>;
}

/** A progress report: a stage name and, where known, a percentage of the whole job (0–100). */
export interface Progress {
  stage: string;
  percent?: number;
}

export interface EngineContext {
  progress(p: Progress): void;
  /** Intra-op threads this engine may use (onnxruntime), chosen from the core count and the pool size. */
  threads: number;
  /** Aborted when the job times out or is cancelled (remote engines cancel their prediction). */
  signal: AbortSignal;
  /** The server's output-pixel limit, for core's checkOutputSize; absent means the catalogue's default. */
  maxOutputPixels?: number;
}

/**
 * One operation's engine, as the job service and the engine hosts call it. Errors it means for the visitor are
 * `AppError`s from the error catalogue; anything else is a fault, logged and shown as ENGINE_FAILED.
 */
export interface Engine<Input = EngineInput> {
  run(input: Input, ctx: EngineContext): Promise<EngineOutput>;
  /**
   * Loads the engine's models into memory ahead of its first job (an engine host calls it when it starts), so
   * that the first job costs what a warm one does. Engines without models leave it out.
   */
  warm?(ctx: Pick<EngineContext, 'threads'>): Promise<void>;
  release?(): Promise<void> | void;
  /** Drops what the engine keeps about a photo (its `photoKey`) between jobs: the photo was deleted or expired. */
  forget?(photo: string): void;
}

/** A task of the engine pool (engines/select/task.ts, engines/analysis/task.ts). */
export type TaskEngine = Engine<TaskInput>;

/** What an engine host loads: an operation's engine or a task. */
export type HostedEngine = Engine<EngineInput | TaskInput>;

/** A local engine: the default export of its module under engines/local/, made by `defineEngine`. */
export interface LocalEngine<Id extends OperationId = OperationId> extends Engine {
  readonly operation: Id;
}
