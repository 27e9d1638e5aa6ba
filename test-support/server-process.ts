/**
 * The real server as its own process (`node --import tsx server/src/main.ts`, as `npm run serve` starts it), for
 * tests and benchmarks that must see it survive: its PID, its exit, its whole process tree. No vitest here, so
 * that benchmarks can use it too.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../server/src/adapters/firebase-emulator.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Test servers show /api/health's details (engine host PIDs, memory, free bytes) to requests with these headers. */
export const HEALTH_DETAILS_TOKEN = 'test-health-details';
export const HEALTH_HEADERS = { 'x-health-token': HEALTH_DETAILS_TOKEN };

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  pid: number;
  /** Whether the process is still the one that was started (it never exited). */
  alive(): boolean;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** Starts the server with these settings (on top of the environment) and waits until /api/health answers. */
export async function startServerProcess(env: Record<string, string>, bootMs = 120_000): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      MODEL_CACHE_DIR: path.join(ROOT, 'data/models'),
      HEALTH_DETAILS_TOKEN,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const alive = () => child.exitCode === null && child.signalCode === null;
  // A benchmark or test that ends early (it threw) does not leave the server (and its emulator) running.
  process.once('exit', () => alive() && child.kill('SIGTERM'));
  const end = Date.now() + bootMs;
  for (;;) {
    if (!alive()) throw new Error(`the server exited while starting (${child.exitCode ?? child.signalCode})`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.status > 0,
      () => false,
    );
    if (ok) break;
    if (Date.now() > end) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer within ${bootMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    pid: child.pid as number,
    alive,
    async stop() {
      if (!alive()) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
