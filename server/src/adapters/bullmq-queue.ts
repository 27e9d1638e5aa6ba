import { type ConnectionOptions, type Job, Queue, Worker } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { JobHandler, JobQueue, QueueStats } from './queue.js';

/** One queue for every operation: workers run whatever comes next, and the job's name says which operation it is. */
export const QUEUE_NAME = 'images';

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
  readonly queue: Queue<ImageJobData>;
  /** A worker in this same process (API with RUN_ENGINES=true), drained on close. */
  worker?: Worker<ImageJobData>;
  /** Until then Redis is taken to be unreachable, so status polls do not each wait for it. */
  private suspectUntil = 0;

  constructor(
    opts: BullmqOptions,
    /** The operation of an image, for the job's name (what /api/health counts by). */
    private readonly operationOf: (imageId: number) => Promise<string | undefined>,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.queue = new Queue<ImageJobData>(QUEUE_NAME, {
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
    this.queue.on('error', () => {});
  }

  /**
   * A submission is accepted even while Redis is unreachable: its row is written and the job waits. The add goes
   * through when Redis is back (or a worker's re-check enqueues the row). Only the first caller during an outage
   * waits the short timeout; later ones return at once.
   */
  async enqueue(imageId: number): Promise<void> {
    const operation = (await this.operationOf(imageId)) ?? 'unknown';
    const added = this.queue.add(operation, { imageId }, { jobId: bullmqJobId(imageId) }).then(
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
    await this.read(() => this.queue.remove(bullmqJobId(imageId)));
  }

  async position(imageId: number): Promise<number | undefined> {
    // Oldest first: the worker takes the oldest waiting job next.
    const ids = await this.read(() => this.queue.getRanges(['waiting'], 0, -1, true));
    const i = ids?.indexOf(bullmqJobId(imageId)) ?? -1;
    return i < 0 ? undefined : i + 1;
  }

  async stats(): Promise<QueueStats> {
    return (await this.read(() => this.readStats())) ?? { waiting: 0, active: 0, unavailable: true };
  }

  private async readStats() {
    const counts = await this.queue.getJobCounts('waiting', 'active', 'delayed');
    const active = await this.queue.getJobs(['active'], 0, -1, true);
    const waiting = await this.queue.getJobs(['waiting'], 0, COUNT_LIMIT - 1, true);
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
    await this.worker?.close();
    await this.queue.close();
  }
}

export interface BullmqWorkerOptions extends BullmqOptions {
  concurrency: number;
  lockMs: number;
  stalledIntervalMs: number;
  log: FastifyBaseLogger;
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
  const worker = new Worker<ImageJobData>(QUEUE_NAME, (job: Job<ImageJobData>) => handler(job.data.imageId), {
    prefix: opts.prefix,
    connection,
    name: opts.name,
    concurrency: opts.concurrency,
    lockDuration: opts.lockMs,
    stalledInterval: opts.stalledIntervalMs,
    // Two requeues: the job's own attempt count (JobService) fails it on its third start, with the message
    // "Processing was interrupted", rather than leaving BullMQ to drop it while the row stays pending.
    maxStalledCount: 2,
  });
  worker.on('error', (err) => opts.log.error({ err }, 'queue worker error'));
  worker.on('stalled', (jobId) => opts.log.warn({ jobId }, 'job stalled (its worker stopped); running it again'));
  worker.on('failed', (job, err) =>
    opts.log.error({ jobId: job?.id, attempt: job?.attemptsMade, err }, 'job threw (will retry while attempts remain)'),
  );
  return worker;
}
