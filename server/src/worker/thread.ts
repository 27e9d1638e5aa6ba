/**
 * A worker thread of the engine pool (piscina). It imports each engine module the first time it is asked to run
 * it, keeps it (and its models) for the next job, and releases every engine after an idle time.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Engine, EngineInput, Progress } from '../engines/types.js';

export interface ThreadTask {
  module: string;
  input: EngineInput;
  threads: number;
  idleMs: number;
  port: MessagePort;
}

/** Engine errors travel as data, so that a rejected task always means the thread itself died. */
export type ThreadResult =
  | { ok: true; images: Uint8Array[]; metadata: Record<string, unknown> }
  | { ok: false; error: string };

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
        progress: (p: Progress) => post({ type: 'progress', ...p }),
        // Local engines are stopped by ending the thread, so their signal never fires.
        signal: new AbortController().signal,
      },
    );
    return { ok: true, images: output.images, metadata: output.metadata ?? {} };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  } finally {
    task.port.close();
    scheduleRelease(task.idleMs);
  }
}
