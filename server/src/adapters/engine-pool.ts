import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { EngineInput, EngineOutput, Progress } from '../engines/types.js';
import type { ThreadMessage, ThreadResult, ThreadTask } from '../worker/thread.js';

const THREAD_BOOT_MS = 60_000;

/** Why a task did not produce a result: the engine failed (its message is for the user), or the thread died. */
export class EngineFailure extends Error {
  constructor(
    message: string,
    readonly reason: 'engine' | 'crashed' | 'timeout',
    /** The error catalogue's code, when the engine threw one of its errors. */
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface EnginePoolOptions {
  threads: number;
  inferenceThreads: number;
  idleMs: number;
  maxOutputPixels?: number;
}

/**
 * The worker-thread pool that runs local engines off the event loop. A timed-out task ends its thread (wasm and
 * native inference cannot be interrupted otherwise) and piscina starts a fresh one; so does a crashed thread.
 */
export class EnginePool {
  private readonly piscina: Piscina;
  private readonly lastRun = new Map<string, number>();

  constructor(private readonly opts: EnginePoolOptions) {
    this.piscina = new Piscina({
      filename: new URL('../worker/thread-entry.mjs', import.meta.url).href,
      minThreads: opts.threads,
      maxThreads: opts.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      // Each thread runs one job at a time; waiting jobs stay in our own queue, where their position is known.
      concurrentTasksPerWorker: 1,
    });
  }

  get size(): number {
    return this.opts.threads;
  }

  /** Modules that ran within the idle time are (very likely) still loaded in some thread. */
  isLoaded(module: string): boolean {
    const t = this.lastRun.get(module);
    return t !== undefined && Date.now() - t < this.opts.idleMs;
  }

  async run(
    module: string,
    input: EngineInput,
    opts: { onProgress: (p: Progress) => void; timeoutMs: number },
  ): Promise<EngineOutput> {
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    // A fresh thread may take a while to boot on a busy machine: the job's time counts from the engine's start.
    let timer = setTimeout(() => abort.abort(), opts.timeoutMs + THREAD_BOOT_MS);
    port1.on('message', ({ type, ...p }: ThreadMessage) => {
      if (type === 'progress') opts.onProgress(p as Progress);
      else {
        clearTimeout(timer);
        timer = setTimeout(() => abort.abort(), opts.timeoutMs);
      }
    });
    const task: ThreadTask = {
      module,
      input,
      threads: this.opts.inferenceThreads,
      idleMs: this.opts.idleMs,
      maxOutputPixels: this.opts.maxOutputPixels,
      port: port2,
    };
    try {
      const result = (await this.piscina.run(task, { transferList: [port2], signal: abort.signal })) as ThreadResult;
      this.lastRun.set(module, Date.now());
      if (!result.ok) throw new EngineFailure(result.error, 'engine', result.code);
      return {
        images: result.images.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)),
        metadata: result.metadata,
      };
    } catch (err) {
      if (err instanceof EngineFailure) throw err;
      if (abort.signal.aborted) throw new EngineFailure('timeout', 'timeout');
      throw new EngineFailure(err instanceof Error ? err.message : String(err), 'crashed');
    } finally {
      clearTimeout(timer);
      port1.close();
    }
  }

  close(): Promise<void> {
    return this.piscina.destroy();
  }
}
