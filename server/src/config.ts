import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIMITS, OPERATIONS, type OperationId } from '@ai-editor/core';
import type { RateLimit } from './adapters/rate-limiter.js';
import { type AuthConfig, loadAuthConfig } from './config-auth.js';
import { env, parseEnv } from './config-env.js';
import { loadScaleOutConfig, type ScaleOutConfig } from './config-scale-out.js';
import { ENGINE_CHOICES, type EngineChoice, type EngineSettings } from './engines/settings.js';
import { StartupError } from './startup-errors.js';

/** Where `npm install` prepares the models when DATA_DIR is not set at install time (scripts/prepare-models.ts). */
const INSTALL_MODEL_CACHE = fileURLToPath(new URL('../../data/models', import.meta.url));

const hasModels = (dir: string) => fs.existsSync(dir) && fs.readdirSync(dir).some((f) => f.endsWith('.onnx'));

/**
 * `$DATA_DIR/models`, unless it holds no prepared model while the install's cache does: a DATA_DIR set at start but
 * not at `npm install` would otherwise prepare 176 MB of models again at the first job (44 s here).
 */
function defaultModelCacheDir(dataDir: string): string {
  const own = path.join(dataDir, 'models');
  return !hasModels(own) && hasModels(INSTALL_MODEL_CACHE) ? INSTALL_MODEL_CACHE : own;
}

/** Every setting of the server, read once from the environment, with the embedded defaults. */
export interface Config extends EngineSettings {
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
  /** Further engine hosts kept for quick work (Select object, photo analysis, jobs expected under 2 s). */
  quickHosts: number;
  inferenceThreads: number;
  /** A host whose resident memory goes over this is ended and its job fails (the photo is too large). */
  engineMemoryMb: number;
  /** How often the supervisor reads each host's resident memory. */
  engineMemorySampleMs: number;
  /** Operations whose engines each host loads at start ('all' the local ones, or none: []). */
  enginePreload: 'all' | string[];
  jobTimeoutMs: number;
  /** On SIGTERM, how long running jobs may finish; those still running then are left pending for the next start. */
  shutdownGraceMs: number;
  /** Engines release their models after this long without a job (0: never). */
  modelIdleMs: number;
  retentionHours: number;
  /** `/api/health` reports storage with less free space than this as not ok (local storage). */
  storageMinFreeBytes: number;
  sweepIntervalMs: number;
  sessionSecret?: string;
  /** Footer links; the code link must lead to this deployment's source (AGPL). */
  socialLinks: { code: string; microblog: string; professional: string };
  ads: { client?: string; slot?: string };
  downloadsEnabled: boolean;
  /** The web app's production build, served on the same origin. */
  webDistDir: string;
  /** Webhooks may target loopback, private and link-local addresses (refused by default). */
  webhookAllowPrivate: boolean;
  /** Take the client address from X-Forwarded-For (only behind a proxy that sets it: it drives rate limits). */
  trustProxy: boolean;
  /**
   * Origins (scheme://host[:port]) whose pages may send state-changing requests with the session cookie, besides
   * the app's own: the address visitors use when a proxy rewrites the Host header.
   */
  publicOrigins: string[];
  /** Requests with `X-Health-Token: <this>` see /api/health's details (host PIDs and memory, free bytes). */
  healthDetailsToken?: string;
  /** Redis queue, worker processes and S3 bucket (config-scale-out.ts); all unset on the embedded defaults. */
  scaleOut: ScaleOutConfig;
  /** Sign-in: Firebase project, emulator or real, and how ID tokens are checked (config-auth.ts). */
  auth: AuthConfig;
  /** Guest submissions per client address per window (signed-in users have the daily limit instead). */
  guestRateLimit: RateLimit;
  /** Contact-form messages per client address per window. */
  contactRateLimit: RateLimit;
  /** New photo analyses (recommendations; cached ones are free) per visitor and per client address. */
  analysisRateLimit: { visitor: RateLimit; address: RateLimit };
  /** Verified sign-in emails (lower case) of the accounts that may use the admin page. */
  adminEmails: string[];
  /** Prometheus metrics on their own listener (never the public port); off without a port. */
  metrics: { port?: number; host: string };
}

/** ADMIN_EMAILS: comma-separated emails; each must look like one, so that a typo stops the start. */
export function parseAdminEmails(raw: string | undefined): string[] {
  if (!raw) return [];
  const emails = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const bad = emails.find((e) => !/^[^\s@,;<>]+@[^\s@,;<>]+\.[^\s@,;<>]+$/.test(e));
  if (bad !== undefined) throw new Error(`Invalid setting: ADMIN_EMAILS must be comma-separated emails, got "${bad}"`);
  return emails;
}

/** Collects PREFIX_SOME_OPERATION=value into { 'some-operation': value }. */
function perOperation(env: NodeJS.ProcessEnv, prefix: string): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith(prefix) && value) out[key.slice(prefix.length).toLowerCase().replace(/_/g, '-')] = value;
  }
  return out;
}

/** ENGINE_* variables that are settings of the engine hosts, not an operation's engine choice. */
const ENGINE_SETTINGS = new Set(['ENGINE_HOSTS', 'ENGINE_MEMORY_MB', 'ENGINE_MEMORY_SAMPLE_MS', 'ENGINE_PRELOAD']);

const engineVariable = (id: string) => `ENGINE_${id.toUpperCase().replace(/-/g, '_')}`;

/** Edits (insert, delete, replace one letter) that turn `a` into `b`: the nearest name for a misspelt variable. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        (row[j] as number) + 1,
        (next[j - 1] as number) + 1,
        (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length] as number;
}

/**
 * ENGINE_<OPERATION>=local|replicate|off for each operation of the catalogue. Any other ENGINE_* name (a misspelt
 * operation) or value is an error naming the variable, so that a setting never silently does nothing.
 */
function engineChoices(source: NodeJS.ProcessEnv): {
  choices: Partial<Record<OperationId, EngineChoice>>;
  errors: string[];
} {
  const choices: Partial<Record<OperationId, EngineChoice>> = {};
  const errors: string[] = [];
  const byVariable = new Map(OPERATIONS.map((op) => [engineVariable(op.id), op.id]));
  for (const [name, value] of Object.entries(source)) {
    if (!name.startsWith('ENGINE_') || ENGINE_SETTINGS.has(name) || !value) continue;
    const operation = byVariable.get(name);
    if (!operation) {
      const nearest = [...byVariable.keys()].sort((a, b) => editDistance(name, a) - editDistance(name, b))[0];
      errors.push(`${name} is not a setting: no operation has that name (did you mean ${nearest}?)`);
    } else if (!(ENGINE_CHOICES as readonly string[]).includes(value)) {
      errors.push(`${name} must be one of ${ENGINE_CHOICES.join(', ')}, got "${value}"`);
    } else choices[operation] = value as EngineChoice;
  }
  return { choices, errors };
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
const hostsByMemory = () => Math.floor((totalMb() * HOSTS_MEMORY_SHARE) / DEFAULT_ENGINE_MEMORY_MB);

function defaultEngineHosts(): number {
  return Math.max(1, Math.min(Math.ceil(os.availableParallelism() / 2), hostsByMemory()));
}

/** One quick host where the memory holds it beside the others (it loads the small and the selection models). */
const defaultQuickHosts = (engineHosts: number) => (hostsByMemory() > engineHosts ? 1 : 0);

/** PUBLIC_ORIGIN: a comma-separated list of origins, each checked and kept as the browser sends it. */
function origins(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw.split(',').map((text) => {
    const trimmed = text.trim();
    let url: URL | undefined;
    try {
      url = new URL(trimmed);
    } catch {}
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== trimmed.replace(/\/$/, '')) {
      throw new StartupError(
        `Invalid setting: PUBLIC_ORIGIN must list origins such as https://editor.example.com, got "${trimmed}"`,
      );
    }
    return url.origin;
  });
}

/** ENGINE_PRELOAD: true (every local engine, the default when the budget allows), false, or operation ids. */
function preloadSetting(raw: string | undefined, memoryMb: number): 'all' | string[] {
  if (raw === undefined) return memoryMb >= PRELOAD_MIN_MB ? 'all' : [];
  if (raw === 'true') return 'all';
  if (raw === 'false') return [];
  return raw.split(',').map((s) => s.trim());
}

/** The variables this file reads, with their rules (config-env.ts); defaults are applied in loadConfig. */
const serverEnv = {
  PORT: env.whole(),
  HOST: env.text(),
  REQUEST_TIMEOUT_MS: env.whole(),
  IDLE_TIMEOUT_MS: env.whole(),
  DATA_DIR: env.text(),
  MODEL_CACHE_DIR: env.text(),
  DATABASE_URL: env.postgresUrl(),
  MAX_UPLOAD_BYTES: env.whole(1),
  MAX_INPUT_PIXELS: env.whole(1),
  MAX_OUTPUT_PIXELS: env.whole(1),
  DAILY_USES_PER_OPERATION: env.whole(),
  ENGINE_HOSTS: env.whole(1),
  QUICK_HOSTS: env.whole(),
  // WORKER_THREADS is the setting's old name, from before engines ran in host processes.
  WORKER_THREADS: env.whole(1),
  INFERENCE_THREADS: env.whole(1),
  ENGINE_MEMORY_MB: env.whole(1),
  ENGINE_MEMORY_SAMPLE_MS: env.whole(1),
  ENGINE_PRELOAD: env.text(),
  JOB_TIMEOUT_MS: env.whole(1),
  SHUTDOWN_GRACE_MS: env.whole(),
  MODEL_IDLE_MS: env.whole(),
  RETENTION_HOURS: env.whole(1),
  STORAGE_MIN_FREE_MB: env.whole(),
  SWEEP_INTERVAL_MS: env.whole(1),
  SESSION_SECRET: env.text(),
  REPLICATE_API_TOKEN: env.text(),
  REPLICATE_API_BASE_URL: env.text(),
  REPLICATE_POLL_MS: env.whole(1),
  SOURCE_CODE_URL: env.text(),
  MICROBLOG_URL: env.text(),
  PROFESSIONAL_NETWORK_URL: env.text(),
  AD_CLIENT: env.text(),
  AD_SLOT: env.text(),
  DOWNLOADS_ENABLED: env.bool(),
  WEB_DIST_DIR: env.text(),
  TRUST_PROXY: env.bool(),
  PUBLIC_ORIGIN: env.text(),
  HEALTH_DETAILS_TOKEN: env.text(),
  WEBHOOK_ALLOW_PRIVATE: env.bool(),
  GUEST_SUBMISSIONS_PER_WINDOW: env.whole(1),
  GUEST_SUBMISSION_WINDOW_MS: env.whole(1),
  ANALYSES_PER_MINUTE: env.whole(1),
  ADMIN_EMAILS: env.text(),
  METRICS_PORT: env.whole(1),
  METRICS_HOST: env.text(),
};

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const engines = engineChoices(source);
  if (engines.errors.length > 0) throw new StartupError(`Invalid setting: ${engines.errors.join('; ')}`);
  const e = parseEnv(serverEnv, source);
  const dataDir = path.resolve(e.DATA_DIR ?? './data');
  const engineHosts = e.ENGINE_HOSTS ?? e.WORKER_THREADS ?? defaultEngineHosts();
  const engineMemoryMb =
    e.ENGINE_MEMORY_MB ??
    Math.min(DEFAULT_ENGINE_MEMORY_MB, Math.floor((totalMb() * HOSTS_MEMORY_SHARE) / engineHosts));
  const auth = loadAuthConfig(source, dataDir);
  return {
    port: e.PORT ?? 5000,
    // The emulator accepts unsigned tokens: anyone who reached the server could sign in as anyone. So emulator
    // sign-in listens on this machine only, unless HOST says otherwise (main.ts then warns).
    host: e.HOST ?? (auth.mode === 'emulator' ? '127.0.0.1' : '0.0.0.0'),
    hostExplicit: e.HOST !== undefined,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS ?? 60_000,
    idleTimeoutMs: e.IDLE_TIMEOUT_MS ?? 120_000,
    dataDir,
    modelCacheDir: path.resolve(e.MODEL_CACHE_DIR ?? defaultModelCacheDir(dataDir)),
    databaseUrl: e.DATABASE_URL,
    maxUploadBytes: e.MAX_UPLOAD_BYTES ?? LIMITS.maxUploadBytes,
    maxInputPixels: e.MAX_INPUT_PIXELS ?? LIMITS.maxInputPixels,
    maxOutputPixels: e.MAX_OUTPUT_PIXELS ?? LIMITS.maxOutputPixels,
    dailyUsesPerOperation: e.DAILY_USES_PER_OPERATION ?? LIMITS.dailyUsesPerOperation,
    engineHosts,
    quickHosts: e.QUICK_HOSTS ?? defaultQuickHosts(engineHosts),
    inferenceThreads: e.INFERENCE_THREADS ?? Math.max(1, Math.floor(os.availableParallelism() / engineHosts)),
    engineMemoryMb,
    engineMemorySampleMs: e.ENGINE_MEMORY_SAMPLE_MS ?? 100,
    enginePreload: preloadSetting(e.ENGINE_PRELOAD, engineMemoryMb),
    jobTimeoutMs: e.JOB_TIMEOUT_MS ?? 5 * 60_000,
    // Under the 10 s a container runtime waits after SIGTERM before it kills.
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS ?? 4000,
    modelIdleMs: e.MODEL_IDLE_MS ?? 10 * 60_000,
    retentionHours: e.RETENTION_HOURS ?? LIMITS.retentionHours,
    storageMinFreeBytes: (e.STORAGE_MIN_FREE_MB ?? 512) * 1024 * 1024,
    sweepIntervalMs: e.SWEEP_INTERVAL_MS ?? 10 * 60_000,
    sessionSecret: e.SESSION_SECRET,
    engineChoice: engines.choices,
    replicateApiToken: e.REPLICATE_API_TOKEN,
    replicateApiBaseUrl: e.REPLICATE_API_BASE_URL ?? 'https://api.replicate.com',
    replicateModels: perOperation(source, 'REPLICATE_MODEL_'),
    replicateInputs: perOperation(source, 'REPLICATE_INPUT_'),
    replicatePollMs: e.REPLICATE_POLL_MS ?? 1000,
    socialLinks: {
      code: e.SOURCE_CODE_URL ?? 'https://github.com/ai-editor/ai-editor',
      microblog: e.MICROBLOG_URL ?? 'https://x.com/aieditor',
      professional: e.PROFESSIONAL_NETWORK_URL ?? 'https://www.linkedin.com/company/ai-editor',
    },
    ads: { client: e.AD_CLIENT, slot: e.AD_SLOT },
    downloadsEnabled: e.DOWNLOADS_ENABLED ?? true,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? fileURLToPath(new URL('../../web/dist', import.meta.url))),
    scaleOut: loadScaleOutConfig(source, { workerThreads: engineHosts }),
    auth,
    trustProxy: e.TRUST_PROXY ?? false,
    publicOrigins: origins(e.PUBLIC_ORIGIN),
    healthDetailsToken: e.HEALTH_DETAILS_TOKEN,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE ?? false,
    guestRateLimit: {
      max: e.GUEST_SUBMISSIONS_PER_WINDOW ?? 20,
      windowMs: e.GUEST_SUBMISSION_WINDOW_MS ?? 10 * 60_000,
    },
    contactRateLimit: { max: 5, windowMs: 60 * 60_000 },
    analysisRateLimit: {
      visitor: { max: e.ANALYSES_PER_MINUTE ?? 20, windowMs: 60_000 },
      address: { max: (e.ANALYSES_PER_MINUTE ?? 20) * 3, windowMs: 60_000 },
    },
    adminEmails: parseAdminEmails(e.ADMIN_EMAILS),
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST ?? '127.0.0.1' },
  };
}
