/**
 * A worker thread of the engine pool (piscina). It imports each engine module the first time it is asked to run
 * it, keeps it (and its models) for the next job, and releases every engine after an idle time.
 */
import os from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { AppError } from '@ai-editor/core';
import type { Engine, EngineInput, Progress } from '../engines/types.js';

/**
 * Inference is batch work: it runs below the API's main thread in the CPU scheduler, so that status polls answer
 * at once even while every core computes. On Linux the nice value is per thread, and the threads onnxruntime and
 * libvips start from here inherit it.
 */
const INFERENCE_NICE = 10;
try {
  os.setPriority(0, INFERENCE_NICE);
} catch {
  // Not permitted on this system: inference then competes with the API as an equal.
}

export interface ThreadTask {
  module: string;
  input: EngineInput;
  threads: number;
  idleMs: number;
  maxOutputPixels?: number;
  port: MessagePort;
}

/** Engine errors travel as data, so that a rejected task always means the thread itself died. */
export type ThreadResult =
  | { ok: true; images: Uint8Array[]; metadata: Record<string, unknown> }
  | { ok: false; error: string; code?: string };

const engines = new Map<string, Engine>();
let idleTimer: NodeJS.Timeout | undefined;

async function load(module: string): Promise<Engine> {
  let engine = engines.get(module);
  if (!engine) {
    engine = ((await import(module)) as { default: Engine }).default;
    engines.set(module, engine);
  }
  return engine;
}

function scheduleRelease(idleMs: number): void {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(async () => {
    for (const engine of engines.values()) await engine.release?.();
    engines.clear();
  }, idleMs);
  idleTimer.unref();
}

function bufferOf(bytes: Uint8Array | undefined): Buffer | undefined {
  return bytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Messages on a task's port: the engine started (the job's timeout counts from here), or progress. */
export type ThreadMessage = { type: 'started' } | ({ type: 'progress' } & Progress);

export default async function run(task: ThreadTask): Promise<ThreadResult> {
  clearTimeout(idleTimer);
  const post = (m: ThreadMessage) => task.port.postMessage(m);
  try {
    const engine = await load(task.module);
    post({ type: 'started' });
    const { input } = task;
    const output = await engine.run(
      { ...input, image: bufferOf(input.image), mask: bufferOf(input.mask), image2: bufferOf(input.image2) },
      {
        threads: task.threads,
        maxOutputPixels: task.maxOutputPixels,
        progress: (p: Progress) => post({ type: 'progress', ...p }),
        // Local engines are stopped by ending the thread, so their signal never fires.
        signal: new AbortController().signal,
      },
    );
    return { ok: true, images: output.images, metadata: output.metadata ?? {} };
  } catch (err) {
    const code = err instanceof AppError ? err.code : undefined;
    return { ok: false, error: err instanceof Error ? err.message : String(err), ...(code && { code }) };
  } finally {
    task.port.close();
    scheduleRelease(task.idleMs);
  }
}
