import type { Lane } from '@ai-editor/core';
import { pickNext, positionOf, type Waiting, type WorkHints } from './scheduling.js';

/**
 * The job queue. Embedded: an in-process FIFO that hands job ids to a handler with bounded concurrency; the scale-out
 * implementation (BullMQ) fills the same interface. The database stays the source of truth: a queue only orders work.
 */
export interface JobQueue {
  readonly kind: string;
  /** Queues a job; `hints` spare a read of its row when the caller has it (else the queue's `describe` reads it). */
  enqueue(jobId: number, hints?: JobDescription): Promise<void>;
  /** From now on hands this process's jobs to `runner` (a process that runs engines calls it once, at start). */
  consume(runner: JobConsumer): void;
  /** Takes a waiting job out of the queue (it was cancelled); a job already running is not affected. */
  remove(jobId: number): Promise<void>;
  /** 1 for the next job to start; undefined once it has started (or when unknown). */
  position(jobId: number): Promise<number | undefined>;
  stats(): Promise<QueueStats>;
  /**
   * Resolves once no job has waited or run in this process for a moment, after `maxMs` at the latest, or when
   * `signal` fires: for work that should take only what jobs leave over. Embedded only (scale-out jobs run in
   * worker processes).
   */
  idle?(maxMs: number, signal?: AbortSignal): Promise<void>;
  ping(): Promise<boolean>;
  /** Stops taking new jobs and waits for the running ones. */
  close(): Promise<void>;
}

/** Queue figures for /api/health; the fields after `active` are the scale-out queue's. */
export interface QueueStats {
  waiting: number;
  active: number;
  /** Jobs waiting to be retried after their worker stopped. */
  retrying?: number;
  /** Worker processes connected to the queue. */
  workerProcesses?: number;
  /** Waiting and active jobs per operation. */
  operations?: Record<string, { waiting: number; active: number }>;
  /** Per-operation counts cover only this many waiting jobs. */
  operationsCountedOver?: number;
  /** Redis did not answer. */
  unavailable?: boolean;
}

export type JobHandler = (jobId: number) => Promise<void>;

/** What runs the jobs a queue hands out (services/job-runner.ts). */
export interface JobConsumer {
  run(jobId: number): Promise<void>;
}

/** What the queue needs to know of a job: its operation (the Redis entry's name), lane, expected time and owner. */
export type JobDescription = WorkHints & { operation: string };

/** A job's scheduling hints (lane, expected duration, owner), read from its row when it is enqueued. */
export type DescribeJob = (jobId: number) => Promise<WorkHints>;

/** How many jobs run at once in each lane (the engine hosts of each lane in this process). */
export interface LaneSlots {
  heavy: number;
  quick: number;
}

/**
 * How long the queue must have had no job before `idle` answers: a visitor's next job often follows the last at once
 * (a batch, or a new photo), and work started in that gap would run beside it.
 */
const IDLE_SETTLE_MS = 250;

interface Entry extends Waiting {
  id: number;
}

/**
 * The embedded queue: hands job ids to the handler when a slot is free, in the order of the scheduling policy
 * (adapters/scheduling.ts): quick slots take quick jobs only, heavy slots any; each visitor's jobs in their order,
 * earliest expected finish first.
 */
export class InProcessQueue implements JobQueue {
  readonly kind = 'in-process';
  private readonly waiting: Entry[] = [];
  /** Enqueued, still being described (the row is read for its hints). */
  private readonly arriving = new Set<number>();
  private readonly active = new Map<number, Lane>();
  private readonly running = new Set<Promise<void>>();
  /** Callers of `idle` waiting for the queue to have no job. */
  private readonly idleWaiters = new Set<() => void>();
  /** Since when the queue has had no job (ms); undefined while it has one. */
  private emptySince: number | undefined = Number.NEGATIVE_INFINITY;
  private settleTimer?: NodeJS.Timeout;
  private closed = false;
  private runner?: JobConsumer;

  constructor(
    private readonly slots: LaneSlots,
    private readonly describe: DescribeJob = async () => ({ lane: 'heavy', expectedMs: 0 }),
  ) {}

  consume(runner: JobConsumer): void {
    this.runner = runner;
    this.pump();
  }

  async enqueue(jobId: number, known?: WorkHints): Promise<void> {
    if (this.closed || this.active.has(jobId) || this.arriving.has(jobId) || this.waiting.some((w) => w.id === jobId)) {
      return;
    }
    this.arriving.add(jobId);
    this.changed();
    const hints = known ?? (await this.describe(jobId).catch((): WorkHints => ({ lane: 'heavy', expectedMs: 0 })));
    if (!this.arriving.delete(jobId) || this.closed) return;
    this.waiting.push({ id: jobId, since: Date.now(), ...hints });
    this.pump();
  }

  async remove(jobId: number): Promise<void> {
    this.arriving.delete(jobId);
    const i = this.waiting.findIndex((w) => w.id === jobId);
    if (i >= 0) this.waiting.splice(i, 1);
    this.changed();
  }

  async position(jobId: number): Promise<number | undefined> {
    const entry = this.waiting.find((w) => w.id === jobId);
    return entry && positionOf(this.waiting, entry);
  }

  async stats() {
    return { waiting: this.waiting.length + this.arriving.size, active: this.active.size };
  }

  idle(maxMs: number, signal?: AbortSignal): Promise<void> {
    if (this.quietMs() >= IDLE_SETTLE_MS || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.idleWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, maxMs);
      signal?.addEventListener('abort', done, { once: true });
      this.idleWaiters.add(done);
      this.wakeWhenSettled();
    });
  }

  async ping() {
    return !this.closed;
  }

  /** How long the queue has had no job (ms), or -1 while it has one. */
  private quietMs(): number {
    return this.emptySince === undefined ? -1 : Date.now() - this.emptySince;
  }

  /** After every change to the jobs in hand: notes when the queue went empty, and wakes `idle` callers in time. */
  private changed(): void {
    const empty = this.waiting.length + this.arriving.size + this.active.size === 0;
    if (!empty) {
      this.emptySince = undefined;
      clearTimeout(this.settleTimer);
      this.settleTimer = undefined;
      return;
    }
    this.emptySince ??= Date.now();
    this.wakeWhenSettled();
  }

  private wakeWhenSettled(): void {
    const quiet = this.quietMs();
    if (this.settleTimer || quiet < 0 || this.idleWaiters.size === 0) return;
    this.settleTimer = setTimeout(
      () => {
        this.settleTimer = undefined;
        if (this.quietMs() >= IDLE_SETTLE_MS) for (const wake of this.idleWaiters) wake();
        else this.wakeWhenSettled();
      },
      Math.max(0, IDLE_SETTLE_MS - quiet),
    );
    this.settleTimer.unref();
  }

  private busy(lane: Lane): number {
    let n = 0;
    for (const l of this.active.values()) if (l === lane) n++;
    return n;
  }

  private pump(): void {
    while (!this.closed && this.runner && this.waiting.length > 0) {
      // A free quick slot first, so that heavy slots stay free for heavy work.
      let slot: Lane = 'quick';
      let i = this.busy('quick') < this.slots.quick ? pickNext(this.waiting, 'quick') : -1;
      if (i < 0 && this.busy('heavy') < this.slots.heavy) {
        slot = 'heavy';
        i = pickNext(this.waiting, 'heavy');
      }
      if (i < 0) return;
      const [entry] = this.waiting.splice(i, 1) as [Entry];
      this.start(entry.id, slot, this.runner);
    }
    this.changed();
  }

  private start(id: number, slot: Lane, runner: JobConsumer): void {
    this.active.set(id, slot);
    const done = runner
      .run(id)
      .catch(() => {}) // the handler records failures on the job itself
      .finally(() => {
        this.active.delete(id);
        this.running.delete(done);
        this.pump();
      });
    this.running.add(done);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiting.length = 0;
    this.arriving.clear();
    await Promise.all(this.running);
  }
}
