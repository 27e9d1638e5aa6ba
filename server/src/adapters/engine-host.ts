import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ErrorCode, Lane } from '@ai-editor/core';
import { HOST_OPTIONS_ENV, type HostMessage, type HostOptions, type RunCommand } from '../engines/host/protocol.js';
import type { EngineInput, EngineOutput, Progress, TaskInput } from '../engines/types.js';
import type { Logger } from '../logging.js';
import type { Waiting, WorkHints } from './scheduling.js';

/** A fresh host may take a while to boot and import its engine on a busy machine: not counted in the job's time. */
const HOST_BOOT_MS = 60_000;

const HOST_ENTRY = fileURLToPath(new URL('../engines/host/host.ts', import.meta.url));
/** Hosts run the TypeScript sources through tsx, as the server itself does. */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/**
 * Why a job got no result. `engine`: the engine failed, with a catalogue code (its own refusal, or ENGINE_FAILED
 * for a fault, logged here). The others mean its host
 * was ended: `timeout` and `cancelled` by the pool, `memory` by the pool for going over the memory budget,
 * `crashed` by anything else (a native crash, abort(), the kernel's out-of-memory killer).
 */
export type FailureReason = 'engine' | 'crashed' | 'timeout' | 'cancelled' | 'memory';

export class EngineFailure extends Error {
  constructor(
    message: string,
    readonly reason: FailureReason,
    /** The error catalogue's code of an `engine` failure. */
    readonly code?: ErrorCode,
  ) {
    super(message);
  }

  /** The job itself brought its host down (counted against it: a job that does so twice is not run again). */
  get endedHost(): boolean {
    return this.reason === 'crashed' || this.reason === 'memory';
  }
}

export interface RunOptions {
  onProgress: (p: Progress) => void;
  /** Counted from the engine's start (after the host booted and imported the engine). */
  timeoutMs: number;
  /** Aborting it cancels the job: it leaves the pool's queue, or its host is ended. */
  signal?: AbortSignal;
  /** Lane, expected duration and owner, for the scheduling policy (scheduling.ts); heavy and unowned if absent. */
  hints?: WorkHints;
  /** The signal only takes the task out of the queue; once running, it finishes (a short task: photo analysis). */
  whileWaitingOnly?: boolean;
  /** Told the PID of the host the job starts on. */
  onHost?: (pid: number | undefined) => void;
}

export interface Task extends Waiting {
  id: number;
  module: string;
  input: EngineInput | TaskInput;
  opts: RunOptions;
  resolve(output: EngineOutput): void;
  reject(err: EngineFailure): void;
}

/** One host process and the job it runs. */
export class Host {
  readonly child: ChildProcess;
  readonly lane: Lane;
  task?: Task;
  ready = false;
  /** Its start-up warm-up is done (host.ts preload): its first job of each engine costs what a later one does. */
  warm = false;
  rssMb = 0;
  loaded: string[] = [];
  /** Set when the pool ends the host, so that its exit is put down to the right cause. */
  private endReason?: FailureReason;
  private timer?: NodeJS.Timeout;

  constructor(
    options: HostOptions,
    private readonly onIdle: (host: Host) => void,
    private readonly log: Pick<Logger, 'error'> | undefined,
    onExit: (host: Host, code: number | null, signal: NodeJS.Signals | null) => void,
  ) {
    this.lane = options.lane;
    this.child = fork(HOST_ENTRY, [], {
      execArgv: ['--import', TSX_LOADER, '--no-warnings'],
      env: {
        // glibc raises its mmap threshold each time a large block is freed, so that the next photo's large buffers
        // come from the heap, where they stay after the job: a fixed threshold returns them. Six identical 2x
        // upscales of a 960x675 photo in one process: memory after each 609 -> 668 MB without, 526-582 MB with;
        // bench:soak's 2x of 1920x1350 in a host: 1021, 1030, 1032 MB after each (the third had gone over 3 GB).
        // 4 MB, not lower: each block over it is mapped afresh and faulted in page by page, which made a selection's
        // mask work (1-3 MB masks) two to three times slower at 128 kB. bench:soak (8 jobs), 128 kB against 4 MB:
        // hosts 1844 and 1665 MB against 1921 and 1741 MB after the last job, +1.5 % and +2.0 % over the first.
        MALLOC_MMAP_THRESHOLD_: String(4 * 1024 * 1024),
        ...process.env,
        [HOST_OPTIONS_ENV]: JSON.stringify(options),
      },
      // Buffers (the photo in, the PNGs out) cross as bytes, not as JSON arrays.
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (m: HostMessage) => this.onMessage(m));
    // A send to a host that just died fails; its exit handler fails the job.
    this.child.on('error', () => {});
    this.child.once('exit', (code, signal) => {
      clearTimeout(this.timer);
      onExit(this, code, signal);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  start(task: Task): void {
    this.task = task;
    this.timer = setTimeout(() => this.end('timeout'), task.opts.timeoutMs + HOST_BOOT_MS);
    const command: RunCommand = { type: 'run', task: task.id, module: task.module, input: task.input };
    this.child.send(command);
    task.opts.onHost?.(this.pid);
  }

  /** Ends the host with SIGKILL: the only way to stop native or wasm code mid-call. Its job fails on exit. */
  end(reason: FailureReason): void {
    this.endReason ??= reason;
    if (this.alive) this.child.kill('SIGKILL');
  }

  /** The job's failure once the host has exited. */
  failure(code: number | null, signal: NodeJS.Signals | null): EngineFailure {
    const reason = this.endReason ?? 'crashed';
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    return new EngineFailure(`engine host ended (${reason}, ${how})`, reason);
  }

  private onMessage(m: HostMessage): void {
    if (m.type === 'ready') {
      // Jobs go to a host once it listens: IPC messages sent before that would be lost.
      this.ready = true;
      this.onIdle(this);
    }
    if (m.type === 'warm') this.warm = true;
    if (m.type === 'loaded') this.loaded = m.modules;
    const task = this.task;
    if (!task || !('task' in m) || m.task !== task.id) return;
    if (m.type === 'started') {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.end('timeout'), task.opts.timeoutMs);
    } else if (m.type === 'progress') {
      const { type: _, task: __, ...p } = m;
      task.opts.onProgress(p);
    } else {
      clearTimeout(this.timer);
      this.task = undefined;
      if (m.type === 'done') {
        task.resolve({ images: m.images.map(bufferOf), metadata: m.metadata });
      } else {
        if (m.fault) {
          const operation = 'operation' in task.input ? task.input.operation : task.input.forOperation;
          this.log?.error({ pid: this.pid, operation, module: task.module, stack: m.fault }, 'engine failed');
        }
        task.reject(new EngineFailure(m.message, 'engine', m.code));
      }
      this.onIdle(this);
    }
  }
}

const bufferOf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/** Resident memory of a process in MB, from /proc (Linux); undefined where that cannot be read. */
export async function residentMb(pid: number): Promise<number | undefined> {
  try {
    const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}
