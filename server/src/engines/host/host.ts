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
import { setModelCacheDir } from '../models/model-cache.js';
import type { EngineInput, HostedEngine, Progress, TaskInput } from '../types.js';
import { HOST_OPTIONS_ENV, type HostMessage, type HostOptions, type PoolCommand, type RunCommand } from './protocol.js';

/**
 * Inference is batch work: it runs below the API in the CPU scheduler, so that status polls answer at once even
 * while every core computes. Quick hosts run above heavy ones (nice 5 against 10: about three times the CPU share
 * when both compute), so that a short job finishes in about its own time beside a long one, which it slows only
 * for that while. On Linux the nice value belongs to each thread: every thread that exists now is lowered, and the
 * threads onnxruntime and libvips start later inherit it from the thread that starts them.
 */
const INFERENCE_NICE = { heavy: 10, quick: 5 } as const;
function lowerPriority(nice: number): void {
  let tids: number[] = [0];
  try {
    tids = fs.readdirSync('/proc/self/task').map(Number);
  } catch {
    // Not Linux: the process-wide call below is all there is.
  }
  for (const tid of tids) {
    try {
      os.setPriority(tid, nice);
    } catch {
      // Not permitted on this system: inference then competes with the API as an equal.
    }
  }
}

const options = JSON.parse(process.env[HOST_OPTIONS_ENV] ?? '{}') as HostOptions;
if (options.modelCacheDir) setModelCacheDir(options.modelCacheDir);
/** A send that fails means the pool's process is gone: the host ends with it. */
const send = (m: HostMessage) => {
  if (!process.connected) process.exit(0);
  process.send?.(m, (err: Error | null) => err && process.exit(0));
};
const engines = new Map<string, Promise<HostedEngine>>();
const loaded = new Set<string>();
let idleTimer: NodeJS.Timeout | undefined;
let busy = false;

function load(module: string): Promise<HostedEngine> {
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

const wrap = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const bufferOf = (bytes: Uint8Array | undefined) => bytes && wrap(bytes);

/** The input as it arrived (its bytes as Uint8Arrays), with Buffers again. */
function withBuffers(input: EngineInput | TaskInput): EngineInput | TaskInput {
  if (!('operation' in input)) return { ...input, image: wrap(input.image), mask: bufferOf(input.mask) };
  return { ...input, image: bufferOf(input.image), mask: bufferOf(input.mask), image2: bufferOf(input.image2) };
}

async function run({ task, module, input }: RunCommand): Promise<void> {
  busy = true;
  clearTimeout(idleTimer);
  try {
    const engine = await load(module);
    send({ type: 'started', task });
    const output = await engine.run(withBuffers(input), {
      threads: options.threads,
      maxOutputPixels: options.maxOutputPixels,
      progress: (p: Progress) => send({ type: 'progress', task, ...p }),
      // The pool stops a job by ending this process, so the engine's own signal never fires here.
      signal: new AbortController().signal,
    });
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
  send({ type: 'warm' });
  if (!busy) scheduleRelease();
}

lowerPriority(INFERENCE_NICE[options.lane ?? 'heavy']);
process.on('message', (m: PoolCommand) => {
  if (m.type === 'run') void run(m);
  if (m.type === 'forget') {
    for (const engine of engines.values()) void engine.then((e) => e.forget?.(m.photo)).catch(() => {});
  }
});
// The pool is gone (its process ended, however it ended): a host never outlives it.
process.on('disconnect', () => process.exit(0));
// A stop signal sent to the whole process group (systemd's default, Ctrl+C in a terminal) is the pool's to act on:
// it gives running jobs their grace, then ends its hosts. A host that died of the signal would fail its job.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => {});
send({ type: 'ready' });
void preload();
