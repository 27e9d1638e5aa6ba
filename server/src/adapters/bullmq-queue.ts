import { type ConnectionOptions, type Job, Queue, Worker } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { JobHandler, JobQueue } from './queue.js';

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

/**
 * The producer side of the Redis queue, used by API processes. The database stays the source of truth: a queue
 * entry only says "run image N next", so losing one (Redis restarted without persistence) loses no job, because
 * workers re-enqueue pending rows on start and periodically.
 */
export class BullmqQueue implements JobQueue {
  readonly kind = 'bullmq';
  readonly queue: Queue<ImageJobData>;
  /** A worker in this same process (API with RUN_ENGINES=true), drained on close. */
  worker?: Worker<ImageJobData>;

  constructor(
    opts: BullmqOptions,
    /** The operation of an image, for the job's name (what /api/health counts by). */
    private readonly operationOf: (imageId: number) => Promise<string | undefined>,
  ) {
    this.queue = new Queue<ImageJobData>(QUEUE_NAME, {
      prefix: opts.prefix,
      // A submission must fail fast when Redis is down instead of hanging the request.
      connection: { url: opts.redisUrl, enableOfflineQueue: false, maxRetriesPerRequest: 1 },
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

  async enqueue(imageId: number): Promise<void> {
    const operation = (await this.operationOf(imageId)) ?? 'unknown';
    await this.queue.add(operation, { imageId }, { jobId: bullmqJobId(imageId) });
  }

  async position(imageId: number): Promise<number | undefined> {
    // Oldest first: the worker takes the oldest waiting job next.
    const ids = await this.queue.getRanges(['waiting'], 0, -1, true);
    const i = ids.indexOf(bullmqJobId(imageId));
    return i < 0 ? undefined : i + 1;
  }

  async stats() {
    try {
      const counts = await this.queue.getJobCounts('waiting', 'active', 'delayed');
      const jobs = [
        ...(await this.queue.getJobs(['active'], 0, -1, true)),
        ...(await this.queue.getJobs(['waiting'], 0, COUNT_LIMIT - 1, true)),
      ];
      const operations: Record<string, { waiting: number; active: number }> = {};
      const active = new Set((await this.queue.getRanges(['active'], 0, -1)) as string[]);
      for (const job of jobs) {
        const entry = (operations[job.name] ??= { waiting: 0, active: 0 });
        if (active.has(job.id as string)) entry.active++;
        else entry.waiting++;
      }
      return {
        waiting: counts.waiting ?? 0,
        active: counts.active ?? 0,
        retrying: counts.delayed ?? 0,
        workerProcesses: await this.queue.getWorkersCount(),
        operations,
        ...((counts.waiting ?? 0) > COUNT_LIMIT && { operationsCountedOver: COUNT_LIMIT }),
      };
    } catch {
      return { waiting: 0, active: 0, unavailable: true };
    }
  }

  async ping(): Promise<boolean> {
    try {
      await this.queue.getJobCounts('waiting');
      return true;
    } catch {
      return false;
    }
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
 * The consumer side: runs `handler(imageId)` for each job. Inference runs in worker threads, so this event loop
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
