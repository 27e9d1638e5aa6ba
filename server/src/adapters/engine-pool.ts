import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ErrorCode, Lane } from '@ai-editor/core';
import {
  type ForgetCommand,
  HOST_OPTIONS_ENV,
  type HostMessage,
  type HostOptions,
  type RunCommand,
} from '../engines/host/protocol.js';
import type { LocalTaskId } from '../engines/local-engines.js';
import type { EngineInput, EngineOutput, Progress, TaskInput } from '../engines/types.js';
import type { Logger } from '../logging.js';
import { pickNext, type Waiting, type WorkHints } from './scheduling.js';

/** A fresh host may take a while to boot and import its engine on a busy machine: not counted in the job's time. */
const HOST_BOOT_MS = 60_000;
/** A host that dies before it is ready is started again after this long, doubling up to the maximum. */
const RESPAWN_DELAY_MS = 500;
const RESPAWN_DELAY_MAX_MS = 30_000;

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

export interface EnginePoolOptions {
  /** Engine host processes for any work (the heavy lane; they take quick work too when free). */
  hosts: number;
  /** More engine host processes kept for quick work only (scheduling.ts); 0: quick work shares the others. */
  quickHosts?: number;
  /** Engine modules the quick hosts load when they start (the heavy hosts load `preload`). */
  quickPreload?: string[];
  /** onnxruntime intra-op threads in each host. */
  inferenceThreads: number;
  /** Engines release their models after this long without a job (0: never). */
  idleMs: number;
  /** A host whose resident memory goes over this is ended, and its job fails. */
  memoryMb: number;
  /** How often each host's resident memory is read. */
  memorySampleMs: number;
  /** Engine modules each host loads when it starts. */
  preload: string[];
  /** The server's output-pixel limit, passed to engines (core's checkOutputSize). */
  maxOutputPixels?: number;
  /** Where engines cache converted model files. */
  modelCacheDir?: string;
  log?: Pick<Logger, 'warn' | 'error'>;
  /** Each host that ends, with why (metrics: restarts and kills by cause). */
  onHostEnded?: (cause: FailureReason, replaced: boolean) => void;
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

/** One host as the admin page shows it. */
export interface HostStatus {
  pid: number | null;
  ready: boolean;
  busy: boolean;
  rssMb: number;
  loaded: string[];
}

/** Pool figures for /api/health and the benchmarks. */
export interface PoolStats {
  hosts: number;
  /** Of `hosts`, those kept for quick work. */
  quickHosts: number;
  busy: number;
  /** Jobs waiting for a free host. */
  waiting: number;
  /** Hosts ended and replaced since the pool started. */
  replaced: number;
  memoryBudgetMb: number;
  /** Resident memory of each host at the last sample. */
  rssMb: number[];
  pids: number[];
}

interface Task extends Waiting {
  id: number;
  module: string;
  input: EngineInput | TaskInput;
  opts: RunOptions;
  resolve(output: EngineOutput): void;
  reject(err: EngineFailure): void;
}

/** One host process and the job it runs. */
class Host {
  readonly child: ChildProcess;
  readonly lane: Lane;
  task?: Task;
  ready = false;
  rssMb = 0;
  loaded: string[] = [];
  /** Set when the pool ends the host, so that its exit is put down to the right cause. */
  private endReason?: FailureReason;
  private timer?: NodeJS.Timeout;

  constructor(
    options: HostOptions,
    private readonly onIdle: (host: Host) => void,
    private readonly log: EnginePoolOptions['log'],
    onExit: (host: Host, code: number | null, signal: NodeJS.Signals | null) => void,
  ) {
    this.lane = options.lane;
    this.child = fork(HOST_ENTRY, [], {
      execArgv: ['--import', TSX_LOADER, '--no-warnings'],
      env: { ...process.env, [HOST_OPTIONS_ENV]: JSON.stringify(options) },
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

/**
 * The supervised engine hosts that run local engines off the API's event loop: a fixed number of child processes,
 * each running one job at a time, with jobs waiting here in order for a free host. A timeout, a cancel or a memory
 * overrun ends the host with SIGKILL; a crash ends only that host. Either way its job fails and a replacement
 * starts at once, so that the process holding the pool (the API, or a scale-out worker) never goes down.
 */
export class EnginePool {
  private hosts: Host[] = [];
  /** In arrival order; the scheduling policy picks from it. */
  private readonly waiting: Task[] = [];
  private nextTask = 1;
  private replaced = 0;
  private respawnDelay = RESPAWN_DELAY_MS;
  private preload: string[];
  private quickPreload: string[];
  private closed = false;
  private readonly sampler: NodeJS.Timeout;

  constructor(private readonly opts: EnginePoolOptions) {
    this.preload = opts.preload;
    this.quickPreload = opts.quickPreload ?? [];
    for (let i = 0; i < opts.hosts; i++) this.spawn('heavy');
    for (let i = 0; i < (opts.quickHosts ?? 0); i++) this.spawn('quick');
    this.sampler = setInterval(() => void this.sampleMemory(), opts.memorySampleMs);
    this.sampler.unref();
  }

  /** Host processes of both lanes. */
  get size(): number {
    return this.opts.hosts + (this.opts.quickHosts ?? 0);
  }

  /** Ends every host at once (SIGKILL), for a process that exits now: hosts busy in native code never linger. */
  killHostsNow(): void {
    for (const host of this.hosts) host.end('cancelled');
  }

  /** Every host drops what its engines keep about this photo (`photoKey`): it was deleted or expired. */
  forget(photo: string): void {
    const command: ForgetCommand = { type: 'forget', photo };
    for (const host of this.hosts) if (host.ready && host.alive) host.child.send(command);
  }

  /** Whether some host has this engine module's models in memory. */
  isLoaded(module: string): boolean {
    return this.hosts.some((h) => h.loaded.includes(module));
  }

  stats(): PoolStats {
    return {
      hosts: this.hosts.length,
      quickHosts: this.hosts.filter((h) => h.lane === 'quick').length,
      busy: this.hosts.filter((h) => h.task).length,
      waiting: this.waiting.length,
      replaced: this.replaced,
      memoryBudgetMb: this.opts.memoryMb,
      rssMb: this.hosts.map((h) => Math.round(h.rssMb)),
      pids: this.hosts.flatMap((h) => (h.pid ? [h.pid] : [])),
    };
  }

  /** Each host: ready, busy, memory and the engine modules it has loaded. */
  hostStatus(): HostStatus[] {
    return this.hosts.map((h) => ({
      pid: h.pid ?? null,
      ready: h.ready && h.alive,
      busy: !!h.task,
      rssMb: Math.round(h.rssMb),
      loaded: h.loaded,
    }));
  }

  /** Runs a job: its operation's engine (`module`: the operation, or a test's engine module URL). */
  run(module: string, input: EngineInput, opts: RunOptions): Promise<EngineOutput> {
    return this.submit(module, input, opts);
  }

  /** Runs a task that is not an operation (LOCAL_TASKS). */
  runTask(task: LocalTaskId, input: TaskInput, opts: RunOptions): Promise<EngineOutput> {
    return this.submit(task, input, opts);
  }

  private submit(module: string, input: EngineInput | TaskInput, opts: RunOptions): Promise<EngineOutput> {
    if (this.closed) return Promise.reject(new EngineFailure('the engine pool is closed', 'crashed'));
    if (opts.signal?.aborted) return Promise.reject(new EngineFailure('cancelled', 'cancelled'));
    return new Promise<EngineOutput>((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiting.indexOf(task);
        if (i >= 0) {
          this.waiting.splice(i, 1);
          reject(new EngineFailure('cancelled', 'cancelled'));
        } else if (!opts.whileWaitingOnly) this.hosts.find((h) => h.task === task)?.end('cancelled');
      };
      const done = () => opts.signal?.removeEventListener('abort', onAbort);
      const hints = opts.hints ?? { lane: 'heavy', expectedMs: 0 };
      const task: Task = {
        ...hints,
        since: Date.now(),
        id: this.nextTask++,
        module,
        input,
        opts,
        resolve: (out) => {
          done();
          resolve(out);
        },
        reject: (err) => {
          done();
          reject(err);
        },
      };
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(task);
      this.dispatch();
    });
  }

  /** Free hosts take waiting work by the scheduling policy; quick hosts first, so heavy ones stay free. */
  private dispatch(): void {
    const free = this.hosts.filter((h) => !h.task && h.ready && h.alive);
    free.sort((a, b) => (a.lane === b.lane ? 0 : a.lane === 'quick' ? -1 : 1));
    for (const host of free) {
      const i = pickNext(this.waiting, host.lane);
      if (i >= 0) host.start(this.waiting.splice(i, 1)[0] as Task);
    }
  }

  private spawn(lane: Lane): void {
    const options: HostOptions = {
      lane,
      threads: this.opts.inferenceThreads,
      idleMs: this.opts.idleMs,
      maxOutputPixels: this.opts.maxOutputPixels,
      modelCacheDir: this.opts.modelCacheDir,
      preload: lane === 'quick' ? this.quickPreload : this.preload,
    };
    this.hosts.push(new Host(options, () => this.dispatch(), this.opts.log, this.onExit));
  }

  private readonly onExit = (host: Host, code: number | null, signal: NodeJS.Signals | null) => {
    this.hosts = this.hosts.filter((h) => h !== host);
    const task = host.task;
    host.task = undefined;
    if (task) {
      const failure = host.failure(code, signal);
      if (failure.reason !== 'cancelled' && failure.reason !== 'timeout') {
        this.opts.log?.error({ pid: host.pid, code, signal, reason: failure.reason }, 'engine host ended mid-job');
      }
      task.reject(failure);
    }
    this.opts.onHostEnded?.(host.failure(code, signal).reason, !this.closed);
    if (this.closed) return;
    this.replaced++;
    // A host that could not even start is not restarted in a tight loop.
    const delay = host.ready ? 0 : this.respawnDelay;
    this.respawnDelay = host.ready ? RESPAWN_DELAY_MS : Math.min(this.respawnDelay * 2, RESPAWN_DELAY_MAX_MS);
    setTimeout(() => {
      if (this.closed) return;
      this.spawn(host.lane);
      this.dispatch();
    }, delay).unref();
  };

  /** Reads each host's resident memory and ends a host over the budget (its job fails: the photo is too large). */
  private async sampleMemory(): Promise<void> {
    await Promise.all(
      this.hosts.map(async (host) => {
        if (!host.pid || !host.alive) return;
        const mb = await residentMb(host.pid);
        if (mb === undefined) return;
        host.rssMb = mb;
        if (mb <= this.opts.memoryMb) return;
        this.opts.log?.warn(
          { pid: host.pid, rssMb: Math.round(mb), budgetMb: this.opts.memoryMb, busy: !!host.task },
          'engine host over its memory budget (ENGINE_MEMORY_MB): ending it',
        );
        // Models alone over the budget: replacements load them on demand instead of at start, or they would be
        // ended again and again.
        if (!host.task) {
          if (host.lane === 'quick') this.quickPreload = [];
          else this.preload = [];
        }
        host.end('memory');
      }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sampler);
    for (const task of this.waiting.splice(0)) task.reject(new EngineFailure('the engine pool is closed', 'crashed'));
    await Promise.all(
      this.hosts.map((host) => {
        if (!host.alive) return undefined;
        const exited = new Promise((resolve) => host.child.once('exit', resolve));
        host.end('cancelled');
        return exited;
      }),
    );
    this.hosts = [];
  }
}
