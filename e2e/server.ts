import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface RunningServer {
  url: string;
  dataDir: string;
  /** SIGTERM, then wait for the process to finish closing (the database is flushed on close). */
  stop(): Promise<void>;
}

/** Starts the real server (`node --import tsx server/src/main.ts`) on a temp data directory (or the given one) and waits for health. */
export async function startServer(opts: {
  port: number;
  env?: Record<string, string>;
  /** The data directory of an earlier run, to start again on its database and files. */
  dataDir?: string;
  /** How long to wait for /api/health (300 s by default). */
  readyTimeoutMs?: number;
  /**
   * Wait for /api/health/ready too: the engine hosts have loaded and warmed their models, so that a bench timing
   * the first jobs does not share the cores with the loading.
   */
  untilWarm?: boolean;
}): Promise<RunningServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ai-editor-e2e-'));
  // E2E_SERVER_ENTRY lets a run point at another entry file (e.g. a patched copy while wiring a route).
  const entry = process.env.E2E_SERVER_ENTRY ?? 'server/src/main.ts';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(opts.port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      WORKER_THREADS: '1',
      ...opts.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${opts.port}`;
  // Generous: the machine may be shared with other busy processes.
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 300_000);
  const probe = opts.untilWarm ? '/api/health/ready' : '/api/health';
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(`${url}${probe}`);
      // 503 means a part is degraded, but the server is up and serving (readiness: not ready yet).
      if (res.status === 200 || (res.status === 503 && !opts.untilWarm)) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer ${probe} within ${(opts.readyTimeoutMs ?? 300_000) / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
