import os from 'node:os';
import path from 'node:path';
import { LIMITS } from '@ai-editor/core';

/** Every setting of the server, read once from the environment, with the embedded defaults. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Where converted or downloaded model files are cached. */
  modelCacheDir: string;
  databaseUrl?: string;
  maxUploadBytes: number;
  maxInputPixels: number;
  dailyUsesPerOperation: number;
  /** Worker threads running local engines, and onnxruntime threads inside each. */
  workerThreads: number;
  inferenceThreads: number;
  jobTimeoutMs: number;
  /** A worker thread releases its models after this long without a job. */
  modelIdleMs: number;
  retentionHours: number;
  sweepIntervalMs: number;
  sessionSecret?: string;
  /** Per-operation engine choice: 'local', 'replicate' or 'off'; unset means the default rule. */
  engineChoice: Record<string, string | undefined>;
  replicateApiToken?: string;
  replicateApiBaseUrl: string;
  /** Replicate model per operation, 'owner/name' or 'owner/name:version' (REPLICATE_MODEL_TEXT2IMG=...). */
  replicateModels: Record<string, string | undefined>;
  /** Generic input template per operation, JSON with $image/$image2/$mask/$params.x (REPLICATE_INPUT_DENOISING=...). */
  replicateInputs: Record<string, string | undefined>;
  /** First delay between prediction polls; later polls back off to 5x this. */
  replicatePollMs: number;
}

/** Collects PREFIX_SOME_OPERATION=value into { 'some-operation': value }. */
function perOperation(env: NodeJS.ProcessEnv, prefix: string): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith(prefix) && value) out[key.slice(prefix.length).toLowerCase().replace(/_/g, '-')] = value;
  }
  return out;
}

function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`${name} must be a number, got "${raw}"`);
  return n;
}

/** Each worker thread holds its own models (~1.3 GB for the largest); leave a core's worth of room for the API. */
function defaultWorkerThreads(): number {
  const cores = os.availableParallelism();
  const byMemory = Math.floor(os.totalmem() / (3 * 1024 ** 3));
  return Math.max(1, Math.min(Math.ceil(cores / 2), byMemory));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const workerThreads = int('WORKER_THREADS', defaultWorkerThreads());
  const engineChoice: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(env)) {
    const m = /^ENGINE_([A-Z0-9_]+)$/.exec(key);
    if (m?.[1]) engineChoice[m[1].toLowerCase().replace(/_/g, '-')] = value;
  }
  return {
    port: int('PORT', 5000),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    modelCacheDir: path.resolve(env.MODEL_CACHE_DIR ?? path.join(dataDir, 'models')),
    databaseUrl: env.DATABASE_URL || undefined,
    maxUploadBytes: int('MAX_UPLOAD_BYTES', LIMITS.maxUploadBytes),
    maxInputPixels: int('MAX_INPUT_PIXELS', LIMITS.maxInputPixels),
    dailyUsesPerOperation: int('DAILY_USES_PER_OPERATION', LIMITS.dailyUsesPerOperation),
    workerThreads,
    inferenceThreads: int('INFERENCE_THREADS', Math.max(1, Math.floor(os.availableParallelism() / workerThreads))),
    jobTimeoutMs: int('JOB_TIMEOUT_MS', 5 * 60_000),
    modelIdleMs: int('MODEL_IDLE_MS', 10 * 60_000),
    retentionHours: int('RETENTION_HOURS', LIMITS.retentionHours),
    sweepIntervalMs: int('SWEEP_INTERVAL_MS', 10 * 60_000),
    sessionSecret: env.SESSION_SECRET || undefined,
    engineChoice,
    replicateApiToken: env.REPLICATE_API_TOKEN || undefined,
    replicateApiBaseUrl: env.REPLICATE_API_BASE_URL || 'https://api.replicate.com',
    replicateModels: perOperation(env, 'REPLICATE_MODEL_'),
    replicateInputs: perOperation(env, 'REPLICATE_INPUT_'),
    replicatePollMs: int('REPLICATE_POLL_MS', 1000),
  };
}
