import os from 'node:os';
import path from 'node:path';
import { expectedMs, laneOf } from '@ai-editor/core';
import type { Config } from '../config.js';
import type { LocalTaskId } from '../engines/local-engines.js';
import type { EngineRegistry } from '../engines/registry.js';
import type { Logger } from '../logging.js';
import { BullmqQueue, type LaneWorkerSettings } from './bullmq-queue.js';
import { EnginePool, type EnginePoolOptions } from './engine-pool.js';
import { type JobChanges, LocalJobChanges } from './job-events.js';
import { InProcessQueue, type JobDescription, type JobQueue } from './queue.js';
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
export function selectRateLimiters(config: Config, log: Logger): RateLimiters {
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

/** The Select object task, which quick hosts load first (the selection's model). */
const SELECT_TASK: LocalTaskId = 'select-object';

/**
 * The engine hosts of this process (the API on the embedded defaults, or a scale-out worker): one code path. Quick
 * hosts load the selection engine and the engines that are quick on an ordinary (one-megapixel) photo.
 */
export function createEnginePool(
  config: Config,
  registry: EngineRegistry,
  log?: Logger,
  onHostEnded?: EnginePoolOptions['onHostEnded'],
): EnginePool {
  const local = registry.all().flatMap((b) => (b.kind === 'local' ? [b] : []));
  const wanted = config.enginePreload;
  const preloaded = local.filter((b) => wanted === 'all' || wanted.includes(b.operation));
  const preload = preloaded.map((b) => b.module);
  const ordinary = { width: 1000, height: 1000 };
  const quick = preloaded.filter((b) => laneOf(expectedMs(b.operation, ordinary)) === 'quick').map((b) => b.module);
  return new EnginePool({
    hosts: config.engineHosts,
    quickHosts: config.quickHosts,
    quickPreload: preload.length ? [SELECT_TASK, ...quick] : [],
    inferenceThreads: config.inferenceThreads,
    idleMs: config.modelIdleMs,
    memoryMb: config.engineMemoryMb,
    memorySampleMs: config.engineMemorySampleMs,
    maxOutputPixels: config.maxOutputPixels,
    modelCacheDir: config.modelCacheDir,
    preload,
    log,
    onHostEnded,
  });
}

/** Names a worker in BullMQ's `processedBy`, so monitoring (and tests) can tell which process holds a job. */
export const workerName = () => `${os.hostname()}-${process.pid}`;

export interface QueueDeps {
  /** The operation of an image (which names its Redis queue entry), its lane, expected time and owner. */
  describe(imageId: number): Promise<JobDescription | undefined>;
  log: Logger;
  registry: EngineRegistry;
  /** Each engine host that ends, with why (metrics). */
  onHostEnded?: EnginePoolOptions['onHostEnded'];
}

export interface QueueSelection {
  queue: JobQueue;
  /** Present when this process runs engines. */
  pool?: EnginePool;
}

/**
 * The embedded default: an in-process queue feeding this process's engine hosts. With `REDIS_URL`: the
 * BullMQ queue, and engines only where `RUN_ENGINES=true` (worker processes run them otherwise; see worker/main.ts).
 * Where there is a pool, the caller hands the queue its job runner (`queue.consume`). Closing the queue drains the
 * jobs this process is running before the pool closes.
 */
export function selectQueue(config: Config, deps: QueueDeps): QueueSelection {
  const { redisUrl, queuePrefix, runEngines } = config.scaleOut;
  if (!redisUrl && !runEngines) throw new Error('RUN_ENGINES=false needs REDIS_URL: worker processes run the jobs');
  const pool = runEngines ? createEnginePool(config, deps.registry, deps.log, deps.onHostEnded) : undefined;
  if (!redisUrl) {
    const slots = { heavy: config.engineHosts, quick: config.quickHosts };
    const describe = async (id: number) => (await deps.describe(id)) ?? { lane: 'heavy' as const, expectedMs: 0 };
    return { queue: new InProcessQueue(slots, describe), pool };
  }
  const lanes = pool ? laneWorkers(config, deps.log) : undefined;
  return { queue: new BullmqQueue({ redisUrl, prefix: queuePrefix }, deps.describe, deps.log, lanes), pool };
}

/**
 * The Redis queue's consumers in a process that runs engines: the heavy lane's worker takes WORKER_CONCURRENCY jobs
 * at once, the quick one as many as there are quick hosts (at least one: without quick hosts, quick jobs go to the
 * heavy hosts first when they are free).
 */
export function laneWorkers(config: Config, log: Logger): LaneWorkerSettings {
  const { workerConcurrency, workerLockMs, stalledIntervalMs } = config.scaleOut;
  return {
    heavyConcurrency: workerConcurrency,
    quickConcurrency: Math.max(1, config.quickHosts),
    lockMs: workerLockMs,
    stalledIntervalMs,
    log,
    name: workerName(),
  };
}

/** Job change notices in this process, or with `REDIS_URL` across the API and worker processes (Redis pub/sub). */
export function selectJobChanges(config: Config, log: Logger): JobChanges {
  const { redisUrl, queuePrefix } = config.scaleOut;
  if (!redisUrl) return new LocalJobChanges();
  return new RedisJobChanges(redisUrl, queuePrefix, (err) =>
    log.warn({ err }, 'job change notices unavailable: status streams fall back to re-reading'),
  );
}
