/** Settings of the scale-out deployment (Redis queue, worker processes, S3 bucket), read from the environment. */
export interface ScaleOutConfig {
  /** BullMQ on this Redis instead of the in-process queue. */
  redisUrl?: string;
  /** Namespaces the queue's Redis keys, so several deployments (or test runs) can share one Redis. */
  queuePrefix: string;
  /** Jobs one worker process runs at once (local engines share its worker threads; remote ones only wait). */
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

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return n;
}

function bool(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

export function loadScaleOutConfig(env: NodeJS.ProcessEnv, defaults: { workerThreads: number }): ScaleOutConfig {
  const redisUrl = env.REDIS_URL || undefined;
  const bucket = env.S3_BUCKET || undefined;
  return {
    redisUrl,
    queuePrefix: env.QUEUE_PREFIX || 'ai-editor',
    workerConcurrency: int(env, 'WORKER_CONCURRENCY', defaults.workerThreads),
    runEngines: bool(env, 'RUN_ENGINES') ?? !redisUrl,
    workerLockMs: int(env, 'WORKER_LOCK_MS', 30_000),
    stalledIntervalMs: int(env, 'WORKER_STALLED_INTERVAL_MS', 30_000),
    s3: bucket
      ? {
          bucket,
          endpoint: env.S3_ENDPOINT || undefined,
          region: env.S3_REGION || 'us-east-1',
          accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
          forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE') ?? !!env.S3_ENDPOINT,
        }
      : undefined,
  };
}
