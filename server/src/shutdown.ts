import { setTimeout as delay } from 'node:timers/promises';

/**
 * A container runtime (and systemd) waits 10 s after SIGTERM before it kills: the process exits by this deadline
 * whatever a step of the shutdown is waiting for. The rest of the 10 s is for a loaded machine: with a job running
 * and a run queue of about 10 on 2 cores, CI's machine once took 10.0 s to be gone with an 8 s deadline
 * (process-lifecycle.test.ts measures it).
 */
export const SHUTDOWN_DEADLINE_MS = 7000;

export interface ShutdownLog {
  info(msg: string): void;
  error(obj: object, msg: string): void;
}

/** Resolves when `work` settles or after `ms`, whichever is first; says which (never rejects). */
export async function within(work: Promise<unknown>, ms: number): Promise<'done' | 'failed' | 'timed out'> {
  const ac = new AbortController();
  try {
    return await Promise.race([
      work.then(
        () => 'done' as const,
        () => 'failed' as const,
      ),
      delay(ms, 'timed out' as const, { signal: ac.signal }),
    ]);
  } finally {
    ac.abort();
  }
}

/**
 * A closed output pipe (the reader of the process's output went away, as when a terminal or a log collector is
 * stopped together with the server) makes every write fail with EPIPE. Those errors are dropped, so that logging
 * can neither crash the process nor stall its shutdown.
 */
export function ignoreBrokenPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
    });
  }
}

/**
 * On SIGINT or SIGTERM: `close()`, then exit 0 (1 if it failed). The process exits by `deadlineMs` after the first
 * signal even if `close()` has not finished, and at once on a second signal (Ctrl+C twice, or an impatient
 * supervisor); before such an early exit `killNow()` ends what must not outlive the process (the engine hosts).
 */
export function exitOnSignals(
  close: () => Promise<void>,
  log: ShutdownLog,
  opts: { deadlineMs?: number; killNow?: () => void } = {},
): void {
  const deadlineMs = opts.deadlineMs ?? SHUTDOWN_DEADLINE_MS;
  const exitNow = () => {
    safely(() => opts.killNow?.());
    process.exit(1);
  };
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) {
        safely(() => log.info(`${signal} again: exiting now`));
        exitNow();
      }
      stopping = true;
      setTimeout(() => {
        safely(() => log.error({}, `shutdown did not finish within ${deadlineMs} ms: exiting`));
        exitNow();
      }, deadlineMs);
      safely(() => log.info(`${signal}: finishing running jobs`));
      close().then(
        () => process.exit(0),
        (err) => {
          safely(() => log.error({ err }, 'shutdown failed'));
          process.exit(1);
        },
      );
    });
  }
}

/** Logging must not keep a shutdown from going on. */
function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // nowhere to report it
  }
}
