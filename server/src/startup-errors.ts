/**
 * A start-up failure whose cause is the deployment's (a setting, an unreachable database, a port in use), told in
 * one line that names the remedy; anything else is a fault of ours and keeps its stack.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** The one line for a start-up failure the operator can fix, or undefined for a fault of ours. */
export function startupMessage(err: unknown): string | undefined {
  if (err instanceof StartupError) return err.message;
  const e = err as NodeJS.ErrnoException & { port?: number; address?: string };
  if (e?.code === 'EADDRINUSE') return `the address ${e.address}:${e.port} is already in use (set PORT or HOST)`;
  if (e?.code === 'EACCES' && e.syscall === 'listen') return `not allowed to listen on ${e.address}:${e.port}`;
  return undefined;
}

/** Prints why the process cannot start (one line when the deployment can fix it) and exits with 1. */
export function exitOnStartupError(err: unknown): never {
  const line = startupMessage(err);
  try {
    if (line) process.stderr.write(`Cannot start: ${line}\n`);
    else console.error('Cannot start:', err);
  } catch {
    // The output may be gone too.
  }
  process.exit(1);
}
