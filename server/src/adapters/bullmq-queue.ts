import type { Lane } from '@ai-editor/core';
import { type ConnectionOptions, type Job, Queue, Worker } from 'bullmq';
import type { Logger } from '../logging.js';
import type { JobConsumer, JobDescription, JobHandler, JobQueue, QueueStats } from './queue.js';

/**
 * A queue per lane (adapters/scheduling.ts): heavy work in `images`, quick work in `images-quick`, each with its own
 * workers, so that quick jobs never wait for a long one to finish. Within a lane, first in, first out (which keeps
 * each visitor's jobs in their order). The job's name says which operation it is.
 */
export const QUEUE_NAME = 'images';
export const QUICK_QUEUE_NAME = 'images-quick';
export const queueNameOf = (lane: Lane) => (lane === 'quick' ? QUICK_QUEUE_NAME : QUEUE_NAME);

/** BullMQ refuses numeric custom ids, so image 42 is job `image-42`: adding it twice is a no-op. */
export const bullmqJobId = (imageId: number) => `image-${imageId}`;

export interface ImageJobData {
  imageId: number;
}

export interface BullmqOptions {
  redisUrl: string;
  /** Namespaces every Redis key of the queue. */
  prefix: string;
}

/** How a process that runs engines takes jobs: one worker per lane (see `consume`). */
export interface LaneWorkerSettings {
  /** Jobs the heavy lane's worker takes at once (WORKER_CONCURRENCY). */
  heavyConcurrency: number;
  /** Jobs the quick lane's worker takes at once (the quick hosts, at least one). */
  quickConcurrency: number;
  lockMs: number;
  stalledIntervalMs: number;
  log: Logger;
  /** Stored on each job it runs (BullMQ's `processedBy`). */
  name?: string;
}

/** Per-operation queue counts shown in /api/health; counted over at most this many waiting jobs. */
const COUNT_LIMIT = 1000;
/** How long a request waits on Redis before answering without it (BullMQ waits for a connection indefinitely). */
const ENQUEUE_WAIT_MS = 2_000;
const READ_WAIT_MS = 1_000;
/** After Redis failed to answer, requests skip it for this long (health checks still try). */
const SUSPECT_MS = 5_000;

/** The value, or undefined when Redis failed or did not answer in time. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise.catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

/**
 * The producer side of the Redis queue, used by API processes. The database stays the source of truth: a queue
 * entry only says "run image N next", so losing one (Redis down at submit time, or restarted without persistence)
 * loses no job: workers re-enqueue pending rows when they start and every minute.
 */
export class BullmqQueue implements JobQueue {
  readonly kind = 'bullmq';
  /** The heavy lane's queue. */
  readonly queue: Queue<ImageJobData>;
  readonly quickQueue: Queue<ImageJobData>;
  /** This process's lane workers (see `consume`), drained on close. */
  workers: Worker<ImageJobData>[] = [];
  /** Until then Redis is taken to be unreachable, so status polls do not each wait for it. */
  private suspectUntil = 0;

  constructor(
    private readonly opts: BullmqOptions,
    /** The operation of an image (the job's name, what /api/health counts by) and its lane. */
    private readonly describe: (imageId: number) => Promise<JobDescription | undefined>,
    private readonly log?: Logger,
    /** Given in a process that runs engines (a worker, or an API process with RUN_ENGINES=true). */
    private readonly lanes?: LaneWorkerSettings,
  ) {
    this.queue = this.open(QUEUE_NAME, opts);
    this.quickQueue = this.open(QUICK_QUEUE_NAME, opts);
  }

  /**
   * Starts this process's consumers: one worker per lane, the heavy one taking `heavyConcurrency` jobs at once, the
   * quick one `quickConcurrency` (without quick hosts, quick jobs go to the heavy hosts first when they are free).
   */
  consume(runner: JobConsumer): void {
    if (!this.lanes) throw new Error('This process runs no engines: it takes no jobs from the queue');
    const { heavyConcurrency, quickConcurrency, ...common } = this.lanes;
    const run = (id: number) => runner.run(id);
    this.workers = [
      startBullmqWorker({ ...this.opts, ...common, lane: 'heavy', concurrency: heavyConcurrency }, run),
      startBullmqWorker({ ...this.opts, ...common, lane: 'quick', concurrency: quickConcurrency }, run),
    ];
  }

  private open(name: string, opts: BullmqOptions): Queue<ImageJobData> {
    const queue = new Queue<ImageJobData>(name, {
      prefix: opts.prefix,
      connection: { url: opts.redisUrl },
      defaultJobOptions: {
        // Retries here cover a database or storage outage while the job ran; the job itself is idempotent.
        attempts: 3,
        backoff: { type: 'exponential', delay: 5_000 },
        // The row holds the outcome; removed entries also let a lost job be enqueued again under its id.
        removeOnComplete: true,
        removeOnFail: true,
      },
    });
    // Without a listener an unreachable Redis would crash the process; ping() reports it instead.
    queue.on('error', () => {});
    return queue;
  }

  private get queues() {
    return [this.queue, this.quickQueue];
  }

  /**
   * A submission is accepted even while Redis is unreachable: its row is written and the job waits. The add goes
   * through when Redis is back (or a worker's re-check enqueues the row). Only the first caller during an outage
   * waits the short timeout; later ones return at once.
   */
  async enqueue(imageId: number, known?: JobDescription): Promise<void> {
    const job = known ?? (await this.describe(imageId));
    const queue = job?.lane === 'quick' ? this.quickQueue : this.queue;
    const added = queue.add(job?.operation ?? 'unknown', { imageId }, { jobId: bullmqJobId(imageId) }).then(
      () => true,
      (err) => {
        this.log?.error({ err, imageId }, 'could not enqueue; a worker will enqueue it from the database');
        return true;
      },
    );
    if (Date.now() < this.suspectUntil) return;
    if (!(await within(added, ENQUEUE_WAIT_MS))) {
      this.suspectUntil = Date.now() + SUSPECT_MS;
      this.log?.warn({ imageId }, 'Redis is not answering; the job waits and is enqueued when it is back');
    }
  }

  /** A waiting entry is removed; an active one is locked by its worker, which sees the row is no longer pending. */
  async remove(imageId: number): Promise<void> {
    await this.read(() => Promise.all(this.queues.map((q) => q.remove(bullmqJobId(imageId)))));
  }

  async position(imageId: number): Promise<number | undefined> {
    // Oldest first within its lane: the lane's workers take the oldest waiting job next.
    for (const queue of this.queues) {
      const ids = await this.read(() => queue.getRanges(['waiting'], 0, -1, true));
      const i = ids?.indexOf(bullmqJobId(imageId)) ?? -1;
      if (i >= 0) return i + 1;
    }
    return undefined;
  }

  async stats(): Promise<QueueStats> {
    return (await this.read(() => this.readStats())) ?? { waiting: 0, active: 0, unavailable: true };
  }

  private async readStats() {
    const [heavy, quick] = await Promise.all(this.queues.map((q) => q.getJobCounts('waiting', 'active', 'delayed')));
    const counts: Record<string, number> = {};
    for (const c of [heavy, quick]) for (const [k, v] of Object.entries(c ?? {})) counts[k] = (counts[k] ?? 0) + v;
    const active = (await Promise.all(this.queues.map((q) => q.getJobs(['active'], 0, -1, true)))).flat();
    const waiting = (
      await Promise.all(this.queues.map((q) => q.getJobs(['waiting'], 0, COUNT_LIMIT - 1, true)))
    ).flat();
    const operations: Record<string, { waiting: number; active: number }> = {};
    for (const [list, state] of [
      [active, 'active'],
      [waiting, 'waiting'],
    ] as const) {
      for (const job of list) {
        const entry = (operations[job.name] ??= { waiting: 0, active: 0 });
        entry[state]++;
      }
    }
    return {
      waiting: counts.waiting ?? 0,
      active: counts.active ?? 0,
      retrying: counts.delayed ?? 0,
      // CLIENT LIST, which some hosted Redis services refuse.
      workerProcesses: await this.queue.getWorkersCount().catch(() => undefined),
      operations,
      ...((counts.waiting ?? 0) > COUNT_LIMIT && { operationsCountedOver: COUNT_LIMIT }),
    };
  }

  async ping(): Promise<boolean> {
    this.suspectUntil = 0;
    return (await this.read(() => this.queue.getJobCounts('waiting'))) !== undefined;
  }

  private async read<T>(query: () => Promise<T>): Promise<T | undefined> {
    if (Date.now() < this.suspectUntil) return undefined;
    const value = await within(query(), READ_WAIT_MS);
    if (value === undefined) this.suspectUntil = Date.now() + SUSPECT_MS;
    return value;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all(this.queues.map((q) => q.close()));
  }
}

export interface BullmqWorkerOptions extends BullmqOptions {
  /** The lane whose queue it takes jobs from. */
  lane: Lane;
  concurrency: number;
  lockMs: number;
  stalledIntervalMs: number;
  log: Logger;
  /** Stored on each job it runs (BullMQ's `processedBy`). */
  name?: string;
}

/**
 * The consumer side: runs `handler(imageId)` for each job. Inference runs in engine host processes, so this event loop
 * stays free to renew job locks. A worker that dies mid-job stops renewing its lock; another worker then finds the
 * job stalled and runs it again (the row's attempt count turns the second interruption into a clear failure).
 */
export function startBullmqWorker(opts: BullmqWorkerOptions, handler: JobHandler): Worker<ImageJobData> {
  const connection: ConnectionOptions = { url: opts.redisUrl, maxRetriesPerRequest: null };
  const worker = new Worker<ImageJobData>(
    queueNameOf(opts.lane),
    (job: Job<ImageJobData>) => handler(job.data.imageId),
    {
      prefix: opts.prefix,
      connection,
      name: opts.name,
      concurrency: opts.concurrency,
      lockDuration: opts.lockMs,
      stalledInterval: opts.stalledIntervalMs,
      // Two requeues: the job's own attempt count (JobService) fails it on its third start, with the message
      // "Processing was interrupted", rather than leaving BullMQ to drop it while the row stays pending.
      maxStalledCount: 2,
    },
  );
  worker.on('error', (err) => opts.log.error({ err }, 'queue worker error'));
  worker.on('stalled', (jobId) => opts.log.warn({ jobId }, 'job stalled (its worker stopped); running it again'));
  worker.on('failed', (job, err) =>
    opts.log.error({ jobId: job?.id, attempt: job?.attemptsMade, err }, 'job threw (will retry while attempts remain)'),
  );
  return worker;
}
