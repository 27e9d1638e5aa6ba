import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { EngineRegistry } from '../engines/registry.js';
import { type JobChanges, LocalJobChanges } from '../services/job-events.js';
import { BullmqQueue, startBullmqWorker } from './bullmq-queue.js';
import { EnginePool } from './engine-pool.js';
import { InProcessQueue, type JobHandler, type JobQueue } from './queue.js';
import {
  memoryRateLimiter,
  type RateLimit,
  type RateLimiter,
  rateLimitRedis,
  redisRateLimiter,
} from './rate-limiter.js';
import { RedisJobChanges } from './redis-job-events.js';
import { S3Storage } from './s3-storage.js';
import { LocalStorage, type Storage } from './storage.js';

/** S3 when `S3_BUCKET` is set, else files under the data directory (the embedded default). */
export function selectStorage(config: Config): Storage {
  const s3 = config.scaleOut.s3;
  return s3 ? new S3Storage(s3) : new LocalStorage(path.join(config.dataDir, 'files'));
}

export interface RateLimiters {
  guests: RateLimiter;
  contact: RateLimiter;
  /** Photo analyses (recommendations) per visitor, and per client address. */
  analysisVisitor: RateLimiter;
  analysisAddress: RateLimiter;
  close(): Promise<void>;
}

/** Client-address limits in memory, or with `REDIS_URL` in Redis, so that every API process counts the same hits. */
export function selectRateLimiters(config: Config, log: FastifyBaseLogger): RateLimiters {
  const { redisUrl, queuePrefix } = config.scaleOut;
  const redis = redisUrl ? rateLimitRedis(redisUrl, queuePrefix) : undefined;
  const limiter = (name: string, limit: RateLimit) =>
    redis
      ? redisRateLimiter(redis, name, limit, (err) =>
          log.warn({ err }, `rate limit (${name}) not checked: Redis failed`),
        )
      : memoryRateLimiter(limit);
  return {
    guests: limiter('guests', config.guestRateLimit),
    contact: limiter('contact', config.contactRateLimit),
    analysisVisitor: limiter('analysis-visitor', config.analysisRateLimit.visitor),
    analysisAddress: limiter('analysis-address', config.analysisRateLimit.address),
    close: async () => redis?.disconnect(),
  };
}

/** The engine hosts of this process (the API on the embedded defaults, or a scale-out worker): one code path. */
export function createEnginePool(config: Config, registry: EngineRegistry, log?: FastifyBaseLogger): EnginePool {
  const local = registry.all().flatMap((b) => (b.kind === 'local' ? [b] : []));
  const wanted = config.enginePreload;
  const preload = local.filter((b) => wanted === 'all' || wanted.includes(b.operation)).map((b) => b.module);
  return new EnginePool({
    hosts: config.engineHosts,
    inferenceThreads: config.inferenceThreads,
    idleMs: config.modelIdleMs,
    memoryMb: config.engineMemoryMb,
    memorySampleMs: config.engineMemorySampleMs,
    maxOutputPixels: config.maxOutputPixels,
    preload,
    log,
  });
}

/** Names a worker in BullMQ's `processedBy`, so monitoring (and tests) can tell which process holds a job. */
export const workerName = () => `${os.hostname()}-${process.pid}`;

export interface QueueDeps {
  /** Runs one job to its outcome; called for each job this process takes. */
  run: JobHandler;
  /** The operation of an image, which names its Redis queue entry. */
  operationOf(imageId: number): Promise<string | undefined>;
  log: FastifyBaseLogger;
  registry: EngineRegistry;
}

export interface QueueSelection {
  queue: JobQueue;
  /** Present when this process runs engines. */
  pool?: EnginePool;
}

/**
 * The embedded default: an in-process queue feeding this process's engine hosts. With `REDIS_URL`: the
 * BullMQ queue, and engines only where `RUN_ENGINES=true` (worker processes run them otherwise; see worker/main.ts).
 * Closing the queue drains the jobs this process is running before the pool closes.
 */
export function selectQueue(config: Config, deps: QueueDeps): QueueSelection {
  const { redisUrl, queuePrefix, runEngines } = config.scaleOut;
  if (!redisUrl && !runEngines) throw new Error('RUN_ENGINES=false needs REDIS_URL: worker processes run the jobs');
  const pool = runEngines ? createEnginePool(config, deps.registry, deps.log) : undefined;
  if (!redisUrl) {
    return { queue: new InProcessQueue(deps.run, config.engineHosts), pool };
  }
  const queue = new BullmqQueue({ redisUrl, prefix: queuePrefix }, deps.operationOf, deps.log);
  if (pool) {
    queue.worker = startBullmqWorker(
      {
        redisUrl,
        prefix: queuePrefix,
        concurrency: config.scaleOut.workerConcurrency,
        lockMs: config.scaleOut.workerLockMs,
        stalledIntervalMs: config.scaleOut.stalledIntervalMs,
        log: deps.log,
        name: workerName(),
      },
      deps.run,
    );
  }
  return { queue, pool };
}

/** Job change notices in this process, or with `REDIS_URL` across the API and worker processes (Redis pub/sub). */
export function selectJobChanges(config: Config, log: FastifyBaseLogger): JobChanges {
  const { redisUrl, queuePrefix } = config.scaleOut;
  if (!redisUrl) return new LocalJobChanges();
  return new RedisJobChanges(redisUrl, queuePrefix, (err) =>
    log.warn({ err }, 'job change notices unavailable: status streams fall back to re-reading'),
  );
}
