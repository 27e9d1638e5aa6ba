import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../logging.js';
import { isRunning } from './processes.js';

export interface AuthEmulatorOptions {
  projectId: string;
  host: '127.0.0.1';
  port: number;
  /** Holds firebase.json, and the exported accounts (imported again at the next start). */
  dataDir: string;
  log?: Pick<Logger, 'info' | 'warn' | 'error'>;
}

export interface AuthEmulator {
  url: string;
  /** Resolves once the emulator is up with its accounts imported; rejects if it exits first or times out. */
  ready(timeoutMs?: number): Promise<void>;
  /** SIGINT, so that the accounts are exported, then waits for the process to end. */
  stop(): Promise<void>;
}

/** The firebase CLI's entry script from the installed firebase-tools package. */
function firebaseCli(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('firebase-tools/package.json');
  const bin = (JSON.parse(fs.readFileSync(pkgPath, 'utf8')) as { bin: Record<string, string> }).bin.firebase;
  if (!bin) throw new Error('firebase-tools has no "firebase" bin');
  return path.join(path.dirname(pkgPath), bin);
}

/** A port nobody listens on right now (for the emulator suite's hub and logging ports). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Watches the emulator's parent from inside its process (see the file). */
const PARENT_WATCH = fileURLToPath(new URL('./emulator-parent-watch.cjs', import.meta.url));
/** How long a stale emulator may take to export its accounts and exit before it is killed. */
const STALE_STOP_MS = 15_000;

/** Whether `pid` is an emulator started for this data directory (its command line names our firebase.json). */
function isOurEmulator(pid: number, dataDir: string): boolean {
  try {
    const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.includes('emulators:start') && args.includes(path.join(dataDir, 'firebase.json'));
  } catch {
    // Not Linux, or gone: only the pid file speaks for it.
    return isRunning(pid);
  }
}

async function waitUntil(done: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    if (await done()) return true;
  }
  return done();
}

const portIsFree = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });

/**
 * An emulator an earlier run of this data directory left behind (its server was killed before it could stop it)
 * still holds the port and the accounts made since the last export. It is asked to stop as Ctrl+C would (it
 * exports them), killed if it has not within STALE_STOP_MS, and the port is waited for.
 */
async function endStaleEmulator(opts: AuthEmulatorOptions, pidFile: string): Promise<void> {
  const pid = Number(fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8').trim() : NaN);
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isOurEmulator(pid, opts.dataDir)) {
    opts.log?.warn({ pid }, 'an Auth emulator left by an earlier run holds the port: stopping it');
    process.kill(pid, 'SIGINT');
    if (!(await waitUntil(() => !isRunning(pid), STALE_STOP_MS))) {
      process.kill(pid, 'SIGKILL');
      await waitUntil(() => !isRunning(pid), 2000);
    }
  }
  fs.rmSync(pidFile, { force: true });
  if (!(await waitUntil(() => portIsFree(opts.host, opts.port), 3000))) {
    throw new Error(
      `port ${opts.port} (AUTH_EMULATOR_PORT) is in use by another program: stop it or choose another port`,
    );
  }
}

/**
 * Starts the Firebase Auth emulator (firebase-tools) beside the app: a demo project, loopback only, no emulator
 * UI, accounts imported from and exported to the data directory. The hub and logging ports are picked free so that
 * several instances (tests, a second checkout) do not collide; only the auth port is fixed by configuration.
 */
export async function startAuthEmulator(opts: AuthEmulatorOptions): Promise<AuthEmulator> {
  const exportDir = path.join(opts.dataDir, 'export');
  fs.mkdirSync(exportDir, { recursive: true });
  const pidFile = path.join(opts.dataDir, 'emulator.pid');
  await endStaleEmulator(opts, pidFile);
  const [hubPort, loggingPort] = [await freePort(), await freePort()];
  const firebaseJson = {
    emulators: {
      auth: { host: opts.host, port: opts.port },
      hub: { host: opts.host, port: hubPort },
      logging: { host: opts.host, port: loggingPort },
      ui: { enabled: false },
      singleProjectMode: true,
    },
  };
  fs.writeFileSync(path.join(opts.dataDir, 'firebase.json'), `${JSON.stringify(firebaseJson, null, 2)}\n`);
  const args = [
    // The emulator ends itself when this process goes away without stopping it (kill -9, a crash).
    '--require',
    PARENT_WATCH,
    firebaseCli(),
    'emulators:start',
    '--only',
    'auth',
    '--project',
    opts.projectId,
    '--config',
    path.join(opts.dataDir, 'firebase.json'),
    '--export-on-exit',
    exportDir,
  ];
  // Only import what an earlier run exported (the CLI warns about a directory without metadata).
  if (fs.existsSync(path.join(exportDir, 'firebase-export-metadata.json'))) args.push('--import', exportDir);

  // The CLI finds "its" hub through a locator file in the temp directory, one per project id: a private temp
  // directory keeps two instances of the same project from exporting each other's accounts.
  const tmpDir = path.join(opts.dataDir, 'tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: opts.dataDir,
    // CI=true keeps the CLI from prompting or checking for updates.
    env: { ...process.env, TMPDIR: tmpDir, CI: 'true', NO_UPDATE_NOTIFIER: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: a stop signal sent to the server's whole group (Ctrl+C, systemd) must not reach it
    // as well, since the CLI takes a second signal as "exit now, without exporting the accounts". It is stopped
    // by stop(), or by its parent watch.
    detached: true,
  });
  fs.writeFileSync(pidFile, String(child.pid));
  const url = `http://${opts.host}:${opts.port}`;
  let output = '';
  // The auth port answers before the accounts are imported; the CLI says when everything is done.
  let allReady = false;
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
    if (!allReady && /All emulators ready/.test(output)) allReady = true;
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      if (fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() === String(child.pid)) fs.rmSync(pidFile);
      resolve(code);
    }),
  );
  let stopping = false;
  void exited.then((code) => {
    // A clean exit while stopping is part of shutting down.
    if (stopping) return;
    if (code === 0) opts.log?.warn('the Firebase Auth emulator stopped');
    else opts.log?.error({ code, output }, 'the Firebase Auth emulator stopped');
  });
  // If this process ends without stop(), take the emulator along.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  return {
    url,
    async ready(timeoutMs = 180_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (stopping) return;
        if (child.exitCode !== null) {
          throw new Error(`the Firebase Auth emulator exited (${child.exitCode}): ${output.trim()}`);
        }
        try {
          if (allReady && (await fetch(`${url}/`)).ok) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`the Firebase Auth emulator did not start in ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    async stop() {
      stopping = true;
      process.off('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      // Still starting: it has nothing to export yet, so it is ended at once.
      if (!allReady) {
        child.kill('SIGKILL');
        await exited;
        return;
      }
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
