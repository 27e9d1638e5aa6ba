import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulatorAccount } from '../../../test-support/emulator-accounts.js';
import { HEALTH_DETAILS_TOKEN } from '../../../test-support/server-process.js';
import { freePort, startAuthEmulator } from '../../src/adapters/firebase-emulator.js';
import { authTestEnv, emulatorReady, signIn } from '../support/auth.js';
import { closedPort } from '../support/ports.js';
import { fixture, visitor } from '../support/server.js';

/**
 * The server as its own process, started and stopped as systemd or a container runtime would: SIGTERM to its whole
 * process group with the reader of its output gone, a second signal, kill -9 in emulator mode, and settings that
 * cannot work. Each must end in time, leave no process behind and say what is wrong in one line.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  url: string;
  dataDir: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: string | null; at: number }>;
}

/** Starts `npm run serve`'s entry in its own process group, with its output on pipes this test can close. */
function launch(env: Record<string, string>, dataDir?: string): Started {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'aie-proc-'));
  if (!dataDir) dirs.push(dir);
  const port = 10_000 + Math.floor(Math.random() * 20_000); // below the ephemeral range (32768 up)
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      MODEL_CACHE_DIR: path.join(ROOT, 'data/models'),
      ENGINE_HOSTS: '1',
      ENGINE_PRELOAD: 'false',
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      HEALTH_DETAILS_TOKEN,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const keep = (c: Buffer) => {
    output = (output + c.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  process.once('exit', () => child.exitCode === null && child.kill('SIGKILL'));
  return { child, url: `http://127.0.0.1:${port}`, dataDir: dir, output: () => output, exited };
}

async function healthy(s: Started, ms = 240_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 250))) {
    if (s.child.exitCode !== null) throw new Error(`exited while starting: ${s.output()}`);
    if (
      await fetch(`${s.url}/api/health`).then(
        (r) => r.status > 0,
        () => false,
      )
    )
      return;
  }
  throw new Error(`no answer within ${ms} ms: ${s.output()}`);
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    if (await check()) return true;
  }
  return check();
}

/** A super-resolution job that takes longer than any grace (4x of a 1000 px photo), submitted signed in. */
async function longJob(url: string): Promise<number> {
  const me = visitor(url);
  await signIn(me);
  const form = new FormData();
  form.append('operation', 'super-resolution');
  form.append('scale', '4');
  const big = await sharp(fixture('astronaut.png')).resize(1000, 1000).png().toBuffer();
  form.append('file', new Blob([new Uint8Array(big)]));
  const res = await me.fetch('/api/images', { method: 'POST', body: form });
  expect(res.status).toBe(201);
  const id = ((await res.json()) as { id: number }).id;
  // Running: its host is busy.
  await until(async () => {
    const h = (await (
      await fetch(`${url}/api/health`, { headers: { 'x-health-token': HEALTH_DETAILS_TOKEN } })
    ).json()) as {
      engineHosts: { busy: number };
    };
    return h.engineHosts.busy === 1;
  }, 60_000);
  return id;
}

/**
 * Load on this machine for `ms` at most: `n` processes that spin (a run queue of about n). Returns a stop function;
 * they end by themselves at `ms` whatever happens to the test.
 */
function spinners(n: number, ms: number): () => void {
  const children = Array.from({ length: n }, () =>
    spawn(process.execPath, ['-e', `const end = Date.now() + ${ms}; while (Date.now() < end);`], { stdio: 'ignore' }),
  );
  return () => {
    for (const c of children) c.kill('SIGKILL');
  };
}

describe('shutdown', () => {
  it('SIGTERM to the whole process group, with the output pipe closed, a job running and the machine loaded: every process gone within 9 s, the job resumed at the next start', async () => {
    await emulatorReady();
    const s = launch(authTestEnv());
    await healthy(s);
    await longJob(s.url);
    // The reader of the server's output goes away: every later write of the server's log fails with EPIPE.
    s.child.stdout?.destroy();
    s.child.stderr?.destroy();
    // A run queue of about 10 on this machine's cores, as on a busy host.
    const stopLoad = spinners(10, 30_000);
    let gone: number;
    const t = Date.now();
    try {
      await new Promise((r) => setTimeout(r, 2000));
      const signalled = Date.now();
      process.kill(-(s.child.pid as number), 'SIGTERM');
      // Nothing of the group is left, its engine hosts included.
      await until(() => !groupAlive(s.child.pid as number), 15_000);
      gone = Date.now() - signalled;
    } finally {
      stopLoad();
    }
    console.log(
      `shutdown under load: every process of the group gone ${gone} ms after SIGTERM (${Date.now() - t} ms with the load's start)`,
    );
    expect(gone).toBeLessThan(9000);
    expect((await s.exited).code).toBe(0);

    // The job was left pending, and the next start runs it again (the data directory has no other job).
    const next = launch(authTestEnv(), s.dataDir);
    try {
      await healthy(next);
      expect(
        await until(async () => {
          const h = (await (
            await fetch(`${next.url}/api/health`, { headers: { 'x-health-token': HEALTH_DETAILS_TOKEN } })
          ).json()) as { engineHosts: { busy: number } };
          return h.engineHosts.busy === 1;
        }, 60_000),
      ).toBe(true);
    } finally {
      process.kill(-(next.child.pid as number), 'SIGKILL');
      await next.exited;
    }
  }, 400_000);

  it('a second SIGTERM exits at once, without waiting for the running job’s grace', async () => {
    await emulatorReady();
    const s = launch(authTestEnv());
    await healthy(s);
    await longJob(s.url);
    process.kill(s.child.pid as number, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    const t = Date.now();
    process.kill(s.child.pid as number, 'SIGTERM');
    const end = await s.exited;
    expect(end.at - t).toBeLessThan(1500);
    expect(end.code).toBe(1);
    expect(await until(() => !groupAlive(s.child.pid as number), 3000)).toBe(true);
  }, 300_000);
});

/** Whether any process of the group `pgid` is still running. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the Auth emulator beside the server (emulator mode)', () => {
  const emulatorEnv = async () => ({ AUTH_MODE: 'emulator', AUTH_EMULATOR_PORT: String(await freePort()) });
  const emulatorPid = (s: Started) =>
    Number(fs.readFileSync(path.join(s.dataDir, 'auth-emulator/emulator.pid'), 'utf8'));
  const signInReady = (s: Started) => until(() => /Local sign-in: Firebase Auth emulator/.test(s.output()), 240_000);
  /** Makes an account in the emulator on this port, as the sign-in popup would. */
  const signUp = (env: Record<string, string>, email: string) =>
    createEmulatorAccount(`http://127.0.0.1:${env.AUTH_EMULATOR_PORT}`, { email });
  /** Whether the emulator on this port knows the email already (signing up again is refused). */
  const known = (env: Record<string, string>, email: string) =>
    signUp(env, email).then(
      () => false,
      (err: Error) => /EMAIL_EXISTS/.test(err.message),
    );

  it('SIGTERM stops server and emulator well under 10 s', async () => {
    const s = launch(await emulatorEnv());
    await healthy(s);
    expect(await signInReady(s)).toBe(true);
    const pid = emulatorPid(s);
    const t = Date.now();
    process.kill(s.child.pid as number, 'SIGTERM');
    const end = await s.exited;
    expect(end.at - t).toBeLessThan(6000);
    expect(isRunning(pid)).toBe(false);
  }, 300_000);

  it('SIGTERM while the emulator is still starting ends it too, well within the deadline', async () => {
    const s = launch(await emulatorEnv());
    const pidFile = path.join(s.dataDir, 'auth-emulator/emulator.pid');
    // As soon as the emulator's process exists: the server may still be starting, the emulator's CLI is loading.
    const spawned = await until(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') !== '', 120_000);
    expect(spawned, s.output()).toBe(true);
    const pid = emulatorPid(s);
    const t = Date.now();
    process.kill(-(s.child.pid as number), 'SIGTERM');
    const end = await s.exited;
    expect(await until(() => !isRunning(pid), 9000)).toBe(true);
    console.log(
      `emulator still starting: server gone ${end.at - t} ms (${end.code ?? end.signal}), emulator ${Date.now() - t} ms after SIGTERM`,
    );
  }, 300_000);

  it('kill -9 of the server: the emulator ends itself; a stale one on the port is replaced at the next start; no account is lost', async () => {
    const env = await emulatorEnv();
    const s = launch(env);
    await healthy(s);
    expect(await signInReady(s)).toBe(true);
    const pid = emulatorPid(s);
    // Accounts made since the emulator's last export (here: since it started) must outlive the kill.
    await signUp(env, 'before-kill@example.com');
    process.kill(s.child.pid as number, 'SIGKILL');
    await s.exited;
    // Its parent gone, the emulator exports its accounts and exits.
    expect(await until(() => !isRunning(pid), 30_000)).toBe(true);

    // An emulator of the same data directory that did not end (started here, so its parent lives on).
    const stale = await startAuthEmulator({
      projectId: 'demo-ai-editor',
      host: '127.0.0.1',
      port: Number(env.AUTH_EMULATOR_PORT),
      dataDir: path.join(s.dataDir, 'auth-emulator'),
    });
    await stale.ready();
    const stalePid = emulatorPid(s);
    await signUp(env, 'on-stale@example.com');
    const next = launch(env, s.dataDir);
    await healthy(next);
    expect(await signInReady(next)).toBe(true);
    expect(isRunning(stalePid)).toBe(false);
    expect(emulatorPid(next)).not.toBe(stalePid);
    expect(next.output()).not.toMatch(/sign-in is unavailable/);
    // Both accounts were exported on the way out and imported again.
    expect(await known(env, 'before-kill@example.com')).toBe(true);
    expect(await known(env, 'on-stale@example.com')).toBe(true);
    expect(await known(env, 'never-made@example.com')).toBe(false);
    process.kill(next.child.pid as number, 'SIGTERM');
    await next.exited;
    await stale.stop();
  }, 600_000);
});

describe('settings that cannot work', () => {
  async function failure(env: Record<string, string>) {
    const s = launch({ LOG_LEVEL: 'warn', ...env });
    const end = await s.exited;
    return { code: end.code, lines: s.output().trim().split('\n') };
  }

  it('a DATABASE_URL that is not a PostgreSQL URL, or names no reachable server: one line, no stack', async () => {
    const bad = await failure({ DATABASE_URL: 'notaurl' });
    expect(bad.code).toBe(1);
    expect(bad.lines).toEqual([
      'Cannot start: Invalid setting: DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@host:5432/database, got "notaurl"',
    ]);
    const port = await closedPort();
    const down = await failure({ DATABASE_URL: `postgres://app:secret@127.0.0.1:${port}/app` });
    expect(down.code).toBe(1);
    expect(down.lines).toHaveLength(1);
    expect(down.lines[0]).toMatch(
      new RegExp(
        `^Cannot start: cannot connect to the database at 127\\.0\\.0\\.1:${port}/app \\(DATABASE_URL\\): .*ECONNREFUSED`,
      ),
    );
    expect(down.lines[0]).not.toContain('secret');
  }, 120_000);
});
