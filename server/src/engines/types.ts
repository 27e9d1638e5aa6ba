import type { OperationId, Params } from '@ai-editor/core';

/** What an engine receives: the uploaded bytes as they arrived (JPEG, PNG or WebP) and the checked parameters. */
export interface EngineInput {
  operation: OperationId;
  /** The main photo (`file`); absent for prompt-only operations. */
  image?: Buffer;
  /** The painted mask (`mask`), white = the area to work on. */
  mask?: Buffer;
  /** The second photo (`file2`, face swap's face). */
  image2?: Buffer;
  params: Params;
}

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
 * One operation's engine. Local engines are the default export of a module under engines/local/, run in a worker
 * thread, load their models lazily on first use and keep them until `release()` (called after an idle time).
 */
export interface Engine {
  run(input: EngineInput, ctx: EngineContext): Promise<EngineOutput>;
  /**
   * Loads the engine's models into memory ahead of its first job (an engine host calls it when it starts), so
   * that the first job costs what a warm one does. Engines without models leave it out.
   */
  warm?(ctx: Pick<EngineContext, 'threads'>): Promise<void>;
  release?(): Promise<void> | void;
}
