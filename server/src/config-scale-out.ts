import { env, parseEnv } from './config-env.js';

/** Settings of the scale-out deployment (Redis queue, worker processes, S3 bucket), read from the environment. */
export interface ScaleOutConfig {
  /** BullMQ on this Redis instead of the in-process queue. */
  redisUrl?: string;
  /** Namespaces the queue's Redis keys, so several deployments (or test runs) can share one Redis. */
  queuePrefix: string;
  /** Jobs one worker process runs at once (local engines share its engine hosts; remote ones only wait). */
  workerConcurrency: number;
  /** Whether this API process also runs jobs. Default: yes with the embedded queue, no with a Redis queue. */
  runEngines: boolean;
  /** A job whose worker stops renewing its lock for this long counts as stalled and is retried once. */
  workerLockMs: number;
  /** How often each worker looks for stalled jobs. */
  stalledIntervalMs: number;
  /** An S3-compatible bucket instead of local files. */
  s3?: S3Config;
}

export interface S3Config {
  bucket: string;
  /** For MinIO and other S3-compatible services; unset for AWS. */
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `http://host/bucket/key` instead of `http://bucket.host/key`; MinIO and most stand-ins need it. */
  forcePathStyle: boolean;
}

const scaleOutEnv = {
  REDIS_URL: env.text(),
  QUEUE_PREFIX: env.text(),
  WORKER_CONCURRENCY: env.whole(1),
  RUN_ENGINES: env.bool(),
  WORKER_LOCK_MS: env.whole(1),
  WORKER_STALLED_INTERVAL_MS: env.whole(1),
  S3_BUCKET: env.text(),
  S3_ENDPOINT: env.text(),
  S3_REGION: env.text(),
  S3_ACCESS_KEY_ID: env.text(),
  S3_SECRET_ACCESS_KEY: env.text(),
  S3_FORCE_PATH_STYLE: env.bool(),
};

export function loadScaleOutConfig(source: NodeJS.ProcessEnv, defaults: { workerThreads: number }): ScaleOutConfig {
  const e = parseEnv(scaleOutEnv, source);
  return {
    redisUrl: e.REDIS_URL,
    queuePrefix: e.QUEUE_PREFIX ?? 'ai-editor',
    workerConcurrency: e.WORKER_CONCURRENCY ?? defaults.workerThreads,
    runEngines: e.RUN_ENGINES ?? !e.REDIS_URL,
    workerLockMs: e.WORKER_LOCK_MS ?? 30_000,
    stalledIntervalMs: e.WORKER_STALLED_INTERVAL_MS ?? 30_000,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION ?? 'us-east-1',
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE ?? !!e.S3_ENDPOINT,
        }
      : undefined,
  };
}
