import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OperationId } from '@ai-editor/core';
import { HEALTH_DETAILS_TOKEN } from '../../../test-support/server-process.js';
import { type App, type AppOptions, buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { authTestEnv, emulatorReady } from './auth.js';

export { HEALTH_HEADERS } from '../../../test-support/server-process.js';

export const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures');
export const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

/** Test-only engines, registered through `localEngineOverrides` (production never sees them). */
export const testEngine = (
  name:
    | 'echo'
    | 'crash'
    | 'hang'
    | 'fail'
    | 'fault'
    | 'too-large'
    | 'abort'
    | 'hog'
    | 'pair'
    | 'slow-echo'
    | 'slow-warm',
) => new URL(`../test-engines/${name}.ts`, import.meta.url).href;

export interface TestServer {
  url: string;
  handle: App;
  dataDir: string;
  /** A visitor with its own cookie jar. */
  visitor(): Visitor;
  close(): Promise<void>;
}

export interface Visitor {
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
  submit(fields: Record<string, string | Blob>): Promise<Response>;
  /** Polls until the job leaves `pending` and returns its final answer. */
  waitFor(id: number, timeoutMs?: number): Promise<Record<string, unknown>>;
}

/** Starts a real server on a free port with its own data directory. */
export async function startTestServer(
  opts: {
    env?: Record<string, string>;
    localEngineOverrides?: Partial<Record<OperationId, string>>;
    dataDir?: string;
  } & Partial<AppOptions> = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'aie-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    MODEL_CACHE_DIR: path.resolve(import.meta.dirname, '../../../data/models'),
    ENGINE_HOSTS: '1',
    // One host and no quick lane's host unless a test is about scheduling (the suites count and end hosts).
    QUICK_HOSTS: '0',
    // Engines load at first use: preloading every model in each test server would only cost the suite time.
    ENGINE_PRELOAD: 'false',
    // Sign-in against the test run's Auth emulator (support/auth.ts), not one per server.
    ...authTestEnv(),
    HEALTH_DETAILS_TOKEN,
    ...opts.env,
  });
  // Suites sign visitors in with users minted in the run's Auth emulator, which starts in the background.
  await emulatorReady();
  const handle = await buildApp({ ...opts, config, localEngineOverrides: opts.localEngineOverrides });
  const url = await handle.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    handle,
    dataDir,
    visitor: () => visitor(url),
    async close() {
      await handle.close();
      if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A server started on port 0 may get the port of one a previous test closed; Node's fetch can then pick that
 * server's stale keep-alive socket and fail with 'other side closed' before anything reached the new server.
 * Such a request is sent again once, on a new socket.
 */
async function fetchOnFreshSocket(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code !== 'UND_ERR_SOCKET') throw err;
    return fetch(url, init);
  }
}

/** A visitor of the server at `base` (any server: in this process or its own). */
export function visitor(base: string): Visitor {
  let cookie = '';
  const self: Visitor = {
    async fetch(pathname, init = {}) {
      const headers = new Headers(init.headers);
      if (cookie) headers.set('cookie', cookie);
      const res = await fetchOnFreshSocket(base + pathname, { ...init, headers });
      const set = res.headers.getSetCookie();
      if (set.length) cookie = set.map((c) => c.split(';')[0]).join('; ');
      return res;
    },
    submit(fields) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v as string | Blob);
      return self.fetch('/api/images', { method: 'POST', body: form });
    },
    async waitFor(id, timeoutMs = 60_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const body = (await (await self.fetch(`/api/images/${id}`)).json()) as Record<string, unknown>;
        if (body.status !== 'pending') return body;
        if (Date.now() > end) throw new Error(`job ${id} still pending after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
  return self;
}

export function blob(bytes: Buffer, type = 'application/octet-stream'): Blob {
  return new Blob([new Uint8Array(bytes)], { type });
}

/** Every file under the storage root, to assert that nothing is left behind. */
export function storedFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'files');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}
