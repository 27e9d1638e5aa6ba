import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIMITS } from '@ai-editor/core';
import type { RateLimit } from './adapters/rate-limiter.js';
import { loadScaleOutConfig, type ScaleOutConfig } from './config-scale-out.js';
import { type AuthConfig, loadAuthConfig } from './services/auth/config.js';

/** Every setting of the server, read once from the environment, with the embedded defaults. */
export interface Config {
  port: number;
  host: string;
  /** HOST was set explicitly (emulator sign-in otherwise binds 127.0.0.1 only). */
  hostExplicit: boolean;
  /** A request, body included, must arrive within this. */
  requestTimeoutMs: number;
  /** A connection with no traffic for this long is closed. */
  idleTimeoutMs: number;
  dataDir: string;
  /** Where converted or downloaded model files are cached. */
  modelCacheDir: string;
  databaseUrl?: string;
  maxUploadBytes: number;
  maxInputPixels: number;
  /** The largest image any tool may make (core's checkOutputSize), refused at submit. */
  maxOutputPixels: number;
  dailyUsesPerOperation: number;
  /** Engine host processes running local engines, and onnxruntime threads inside each. */
  engineHosts: number;
  inferenceThreads: number;
  /** A host whose resident memory goes over this is ended and its job fails (the photo is too large). */
  engineMemoryMb: number;
  /** How often the supervisor reads each host's resident memory. */
  engineMemorySampleMs: number;
  /** Operations whose engines each host loads at start ('all' the local ones, or none: []). */
  enginePreload: 'all' | string[];
  jobTimeoutMs: number;
  /** Engines release their models after this long without a job (0: never). */
  modelIdleMs: number;
  retentionHours: number;
  /** `/api/health` reports storage with less free space than this as not ok (local storage). */
  storageMinFreeBytes: number;
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
  /** Footer links; the code link must lead to this deployment's source (AGPL). */
  socialLinks: { code: string; microblog: string; professional: string };
  ads: { client?: string; slot?: string };
  downloadsEnabled: boolean;
  /** The web app's production build, served on the same origin. */
  webDistDir: string;
  /** Take the client address from X-Forwarded-For (only behind a proxy that sets it: it drives rate limits). */
  trustProxy: boolean;
  /** Redis queue, worker processes and S3 bucket (config-scale-out.ts); all unset on the embedded defaults. */
  scaleOut: ScaleOutConfig;
  /** Sign-in: Firebase project, emulator or real, and how ID tokens are checked (services/auth/config.ts). */
  auth: AuthConfig;
  /** Guest submissions per client address per window (signed-in users have the daily limit instead). */
  guestRateLimit: RateLimit;
  /** Contact-form messages per client address per window. */
  contactRateLimit: RateLimit;
}

/** Collects PREFIX_SOME_OPERATION=value into { 'some-operation': value }. */
function perOperation(env: NodeJS.ProcessEnv, prefix: string): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith(prefix) && value) out[key.slice(prefix.length).toLowerCase().replace(/_/g, '-')] = value;
  }
  return out;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`${name} must be a number, got "${raw}"`);
  return n;
}

/**
 * Memory a host may use by default: every model loaded (~1.6 GB) plus the largest job's buffers (~1 GB for a 4096 px
 * super-resolution), and no more, so that a photo that would need far more is stopped early.
 */
const DEFAULT_ENGINE_MEMORY_MB = 3072;
/** Of the machine's memory, the share engine hosts may take together; the rest is the API's and the system's. */
const HOSTS_MEMORY_SHARE = 0.75;
/** Preloading every model takes this much of a host's budget; below it, models load at first use instead. */
const PRELOAD_MIN_MB = 2048;

const totalMb = () => os.totalmem() / 1024 ** 2;

/** Each host holds its own copy of its models: half the cores (one is the API's), as many as the memory holds. */
function defaultEngineHosts(): number {
  const byMemory = Math.floor((totalMb() * HOSTS_MEMORY_SHARE) / DEFAULT_ENGINE_MEMORY_MB);
  return Math.max(1, Math.min(Math.ceil(os.availableParallelism() / 2), byMemory));
}

/** ENGINE_PRELOAD: true (every local engine, the default when the budget allows), false, or operation ids. */
function preloadSetting(raw: string | undefined, memoryMb: number): 'all' | string[] {
  if (raw === undefined || raw === '') return memoryMb >= PRELOAD_MIN_MB ? 'all' : [];
  if (raw === 'true') return 'all';
  if (raw === 'false') return [];
  return raw.split(',').map((s) => s.trim());
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  // WORKER_THREADS is the setting's name from when engines ran in worker threads.
  const engineHosts = int(env, 'ENGINE_HOSTS', int(env, 'WORKER_THREADS', defaultEngineHosts()));
  const engineMemoryMb = int(
    env,
    'ENGINE_MEMORY_MB',
    Math.min(DEFAULT_ENGINE_MEMORY_MB, Math.floor((totalMb() * HOSTS_MEMORY_SHARE) / engineHosts)),
  );
  const engineChoice = perOperation(env, 'ENGINE_');
  const auth = loadAuthConfig(env, dataDir);
  return {
    port: int(env, 'PORT', 5000),
    // The emulator accepts unsigned tokens: anyone who reached the server could sign in as anyone. So emulator
    // sign-in listens on this machine only, unless HOST says otherwise (main.ts then warns).
    host: env.HOST || (auth.mode === 'emulator' ? '127.0.0.1' : '0.0.0.0'),
    hostExplicit: !!env.HOST,
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 60_000),
    idleTimeoutMs: int(env, 'IDLE_TIMEOUT_MS', 120_000),
    dataDir,
    modelCacheDir: path.resolve(env.MODEL_CACHE_DIR ?? path.join(dataDir, 'models')),
    databaseUrl: env.DATABASE_URL || undefined,
    maxUploadBytes: int(env, 'MAX_UPLOAD_BYTES', LIMITS.maxUploadBytes),
    maxInputPixels: int(env, 'MAX_INPUT_PIXELS', LIMITS.maxInputPixels),
    maxOutputPixels: int(env, 'MAX_OUTPUT_PIXELS', LIMITS.maxOutputPixels),
    dailyUsesPerOperation: int(env, 'DAILY_USES_PER_OPERATION', LIMITS.dailyUsesPerOperation),
    engineHosts,
    inferenceThreads: int(env, 'INFERENCE_THREADS', Math.max(1, Math.floor(os.availableParallelism() / engineHosts))),
    engineMemoryMb,
    engineMemorySampleMs: int(env, 'ENGINE_MEMORY_SAMPLE_MS', 100),
    enginePreload: preloadSetting(env.ENGINE_PRELOAD, engineMemoryMb),
    jobTimeoutMs: int(env, 'JOB_TIMEOUT_MS', 5 * 60_000),
    modelIdleMs: int(env, 'MODEL_IDLE_MS', 10 * 60_000),
    retentionHours: int(env, 'RETENTION_HOURS', LIMITS.retentionHours),
    storageMinFreeBytes: int(env, 'STORAGE_MIN_FREE_MB', 512) * 1024 * 1024,
    sweepIntervalMs: int(env, 'SWEEP_INTERVAL_MS', 10 * 60_000),
    sessionSecret: env.SESSION_SECRET || undefined,
    engineChoice,
    replicateApiToken: env.REPLICATE_API_TOKEN || undefined,
    replicateApiBaseUrl: env.REPLICATE_API_BASE_URL || 'https://api.replicate.com',
    replicateModels: perOperation(env, 'REPLICATE_MODEL_'),
    replicateInputs: perOperation(env, 'REPLICATE_INPUT_'),
    replicatePollMs: int(env, 'REPLICATE_POLL_MS', 1000),
    socialLinks: {
      code: env.SOURCE_CODE_URL || 'https://github.com/ai-editor/ai-editor',
      microblog: env.MICROBLOG_URL || 'https://x.com/aieditor',
      professional: env.PROFESSIONAL_NETWORK_URL || 'https://www.linkedin.com/company/ai-editor',
    },
    ads: { client: env.AD_CLIENT || undefined, slot: env.AD_SLOT || undefined },
    downloadsEnabled: env.DOWNLOADS_ENABLED !== 'false',
    webDistDir: path.resolve(env.WEB_DIST_DIR ?? fileURLToPath(new URL('../../web/dist', import.meta.url))),
    scaleOut: loadScaleOutConfig(env, { workerThreads: engineHosts }),
    auth,
    trustProxy: env.TRUST_PROXY === 'true',
    guestRateLimit: {
      max: int(env, 'GUEST_SUBMISSIONS_PER_WINDOW', 20),
      windowMs: int(env, 'GUEST_SUBMISSION_WINDOW_MS', 10 * 60_000),
    },
    contactRateLimit: { max: 5, windowMs: 60 * 60_000 },
  };
}
