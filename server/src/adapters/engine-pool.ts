import type { Lane } from '@ai-editor/core';
import type { ForgetCommand, HostOptions } from '../engines/host/protocol.js';
import type { LocalTaskId } from '../engines/local-engines.js';
import type { EngineInput, EngineOutput, TaskInput } from '../engines/types.js';
import type { Logger } from '../logging.js';
import { EngineFailure, type FailureReason, Host, type RunOptions, residentMb, type Task } from './engine-host.js';
import { pickNext } from './scheduling.js';

export { EngineFailure, type FailureReason, type RunOptions, residentMb } from './engine-host.js';

/** A host that dies before it is ready is started again after this long, doubling up to the maximum. */
const RESPAWN_DELAY_MS = 500;
const RESPAWN_DELAY_MAX_MS = 30_000;

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

/**
 * The supervised engine hosts that run local engines off the API's event loop: a fixed number of child processes,
 * each running one job at a time, with jobs waiting here in order for a free host. A timeout, a cancel or a memory
 * overrun ends the host with SIGKILL; a crash ends only that host. Either way its job fails and a replacement
 * starts at once, so that the process holding the pool (the API, or a scale-out worker) never goes down.
 */
export class EnginePool {
  private hosts: Host[] = [];
  /** The hosts started with the pool: it is warmed up once each has warmed (or ended). */
  private readonly firstHosts: Host[];
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
    this.firstHosts = [...this.hosts];
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

  /**
   * Whether the hosts started with the pool have warmed their engines, so that a first job costs what a later one
   * does (readiness waits for it). A host that replaces one later warms while the others serve.
   */
  get warmedUp(): boolean {
    return this.firstHosts.every((h) => h.warm || !h.alive);
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
