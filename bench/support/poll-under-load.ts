import { spawn } from 'node:child_process';
import path from 'node:path';

export interface PollFigures {
  /** Latencies (ms) of the 200 answers. */
  latencies: number[];
  failures: string[];
}

/**
 * GETs `url` at `rate` per second from a second process (poll-load.ts), as browsers would, until `during` settles:
 * the load generator's own work is not charged to the server.
 */
export async function pollsDuring(url: string, rate: number, cookie: string, during: Promise<unknown>) {
  const load = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'poll-load.ts'), url, String(rate), cookie, '600'],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let output = '';
  load.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise((resolve) => load.on('exit', resolve));
  try {
    await during;
  } finally {
    load.stdin.end('stop\n');
    await exited;
  }
  return JSON.parse(output) as PollFigures;
}

export const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] as number;
