/** Shared pieces of the scale-out suite: a throwaway database, an in-process S3 stand-in, worker processes. */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { paginateListObjectsV2, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import S3rver from 's3rver';

// TEST_* first: CI sets those (.ci/services.sh) so that no other server started from the environment moves onto
// the shared database and queue; DATABASE_URL/REDIS_URL work too.
const DATABASE_URL = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL || process.env.REDIS_URL;

/** Why the suite cannot run here, or undefined when it can. */
export const skipReason =
  DATABASE_URL && REDIS_URL
    ? undefined
    : `scale-out tests SKIPPED: no ${[!DATABASE_URL && 'PostgreSQL (TEST_DATABASE_URL or DATABASE_URL)', !REDIS_URL && 'Redis (TEST_REDIS_URL or REDIS_URL)'].filter(Boolean).join(' and no ')}; source .ci/services.sh to start and set both`;
if (skipReason) console.warn(`\n*** ${skipReason} ***\n`);

export const redisUrl = REDIS_URL ?? '';

/** A fresh database for this run, created beside DATABASE_URL's and dropped afterwards. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `test_scaleout_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(DATABASE_URL as string);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** A unique BullMQ key prefix, so runs sharing one Redis never see each other's jobs. */
export const uniquePrefix = () => `aie-test-${randomBytes(5).toString('hex')}`;

export interface S3StandIn {
  env: Record<string, string>;
  /** Every object key in the bucket. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

/** s3rver, in this process, on a free port, with one bucket. */
export async function startS3(): Promise<S3StandIn> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-s3-'));
  const bucket = 'ai-editor-test';
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return {
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async keys() {
      const client = new S3Client({
        endpoint: `http://127.0.0.1:${port}`,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      const keys: string[] = [];
      for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket })) {
        for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
      }
      client.destroy();
      return keys.sort();
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

export interface WorkerChild {
  child: ChildProcess;
  /** Its name in BullMQ's `processedBy`. */
  name: string;
  /** SIGTERM, then waits for the graceful exit. */
  stop(): Promise<void>;
  kill(): Promise<void>;
}

/** Starts a real worker process (test entry: the slow test engine runs background removal). */
export async function startWorker(env: Record<string, string>): Promise<WorkerChild> {
  const child = fork(path.join(import.meta.dirname, 'worker-entry.ts'), {
    execArgv: ['--import', 'tsx', '--no-warnings'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const name = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('worker did not start in 60 s')), 60_000);
    child.on('message', (m: { ready?: string }) => {
      if (m.ready) {
        clearTimeout(timer);
        resolve(m.ready);
      }
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code} before it was ready`)));
  });
  return {
    child,
    name,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

export async function waitUntil<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 90_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Visitor {
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
  submit(fields: Record<string, string | Blob>): Promise<Response>;
}

/** A browser-like client with its own session cookie. */
export function visitor(base: () => string): Visitor {
  let cookie = '';
  const self: Visitor = {
    async fetch(pathname, init = {}) {
      const headers = new Headers(init.headers);
      if (cookie) headers.set('cookie', cookie);
      const res = await fetch(base() + pathname, { ...init, headers });
      const set = res.headers.getSetCookie();
      if (set.length) cookie = set.map((c) => c.split(';')[0]).join('; ');
      return res;
    },
    submit(fields) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      return self.fetch('/api/images', { method: 'POST', body: form });
    },
  };
  return self;
}
