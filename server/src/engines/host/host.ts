/**
 * An engine host: a child process of the engine pool (adapters/engine-pool.ts) that runs local engines, one job at a
 * time. It imports each engine module the first time it is needed and keeps it (and its models) for the next job;
 * engines release their models after an idle time. The pool ends a host with SIGKILL to stop a job (timeout,
 * cancel, memory budget): whatever native code was running dies with the process, never with the API.
 */
import fs from 'node:fs';
import os from 'node:os';
import { AppError, type ErrorCode, errorMessage } from '@ai-editor/core';
import { loadLocalEngine } from '../local-engines.js';
import type { Engine, Progress } from '../types.js';
import { HOST_OPTIONS_ENV, type HostMessage, type HostOptions, type RunCommand } from './protocol.js';

/**
 * Inference is batch work: it runs below the API in the CPU scheduler, so that status polls answer at once even
 * while every core computes. On Linux the nice value belongs to each thread: every thread that exists now is
 * lowered, and the threads onnxruntime and libvips start later inherit it from the thread that starts them.
 */
const INFERENCE_NICE = 10;
function lowerPriority(): void {
  let tids: number[] = [0];
  try {
    tids = fs.readdirSync('/proc/self/task').map(Number);
  } catch {
    // Not Linux: the process-wide call below is all there is.
  }
  for (const tid of tids) {
    try {
      os.setPriority(tid, INFERENCE_NICE);
    } catch {
      // Not permitted on this system: inference then competes with the API as an equal.
    }
  }
}

const options = JSON.parse(process.env[HOST_OPTIONS_ENV] ?? '{}') as HostOptions;
/** A send that fails means the pool's process is gone: the host ends with it. */
const send = (m: HostMessage) => {
  if (!process.connected) process.exit(0);
  process.send?.(m, (err: Error | null) => err && process.exit(0));
};
const engines = new Map<string, Promise<Engine>>();
const loaded = new Set<string>();
let idleTimer: NodeJS.Timeout | undefined;
let busy = false;

function load(module: string): Promise<Engine> {
  let engine = engines.get(module);
  if (!engine) {
    engine = loadLocalEngine(module);
    engines.set(module, engine);
    // A module that failed to import is tried again next time.
    engine.catch(() => engines.delete(module));
  }
  return engine;
}

function reportLoaded(module?: string): void {
  if (module) loaded.add(module);
  send({ type: 'loaded', modules: [...loaded] });
}

function scheduleRelease(): void {
  clearTimeout(idleTimer);
  if (!options.idleMs) return;
  idleTimer = setTimeout(async () => {
    if (busy) return;
    for (const engine of engines.values()) await (await engine).release?.();
    engines.clear();
    loaded.clear();
    reportLoaded();
  }, options.idleMs);
}

const bufferOf = (bytes: Uint8Array | undefined) =>
  bytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

async function run({ task, module, input }: RunCommand): Promise<void> {
  busy = true;
  clearTimeout(idleTimer);
  try {
    const engine = await load(module);
    send({ type: 'started', task });
    const output = await engine.run(
      { ...input, image: bufferOf(input.image), mask: bufferOf(input.mask), image2: bufferOf(input.image2) },
      {
        threads: options.threads,
        maxOutputPixels: options.maxOutputPixels,
        progress: (p: Progress) => send({ type: 'progress', task, ...p }),
        // The pool stops a job by ending this process, so the engine's own signal never fires here.
        signal: new AbortController().signal,
      },
    );
    reportLoaded(module);
    send({ type: 'done', task, images: output.images, metadata: output.metadata ?? {} });
  } catch (err) {
    send({ type: 'failed', task, ...describe(err) });
  } finally {
    busy = false;
    scheduleRelease();
  }
}

/** A refusal keeps its catalogue code and message; anything else is a fault, reported with its stack for the log. */
function describe(err: unknown): { code: ErrorCode; message: string; fault?: string } {
  if (err instanceof AppError) return { code: err.code, message: err.message };
  const fault = err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : String(err);
  return { code: 'ENGINE_FAILED', message: errorMessage('ENGINE_FAILED'), fault };
}

/** Loads every engine this deployment runs, so that the first job of each costs what a warm one does. */
async function preload(): Promise<void> {
  for (const module of options.preload) {
    try {
      const engine = await load(module);
      await engine.warm?.({ threads: options.threads });
      reportLoaded(module);
    } catch (err) {
      // The job that needs it will load it again and report the error to its visitor.
      console.error(`engine host: could not preload ${module}:`, err);
    }
  }
  if (!busy) scheduleRelease();
}

lowerPriority();
process.on('message', (m: RunCommand) => {
  if (m.type === 'run') void run(m);
});
// The pool is gone (its process ended, however it ended): a host never outlives it.
process.on('disconnect', () => process.exit(0));
// A stop signal sent to the whole process group (systemd's default, Ctrl+C in a terminal) is the pool's to act on:
// it gives running jobs their grace, then ends its hosts. A host that died of the signal would fail its job.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => {});
send({ type: 'ready' });
void preload();
