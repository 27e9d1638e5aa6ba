/**
 * Soak of one engine host: BENCH_SOAK_JOBS (20) identical super-resolutions at 2x of a 1920x1350 photo, one after
 * another, through the real server in its own process on the default memory budget. After each job it prints the
 * engine hosts' resident memory (VmRSS, read from /proc) and the job's time; then the last against the first.
 * Target: every job completes, and the host's memory after the last is within 10 % of after the first.
 * Run: npm run bench:soak   (BENCH_SOAK_JOBS=20)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { freePort } from '../server/src/adapters/firebase-emulator.js';
import { HEALTH_HEADERS, startServerProcess } from '../test-support/server-process.js';
import { signIn } from './support/sign-in.js';

const JOBS = Number(process.env.BENCH_SOAK_JOBS ?? 20);
const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const photo = await sharp(path.join(fixtures, 'astronaut.png'))
  .resize(1920, 1350, { fit: 'fill' })
  .jpeg({ quality: 92 })
  .toBuffer();

/** Resident memory of a process in MB, from /proc (0 when it is gone). */
function rssMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-soak-'));
const server = await startServerProcess(
  {
    DATA_DIR: dataDir,
    AUTH_EMULATOR_PORT: String(await freePort()),
    // More jobs than a visitor's daily allowance; the rules themselves are tested elsewhere.
    DAILY_USES_PER_OPERATION: '10000',
    // On a loaded machine one job can take minutes: the soak is about memory, not the job time limit.
    JOB_TIMEOUT_MS: '1800000',
  },
  600_000,
);
try {
  const cookie = await signIn(server.url);
  const health = async () =>
    (await (await fetch(`${server.url}/api/health`, { headers: HEALTH_HEADERS })).json()) as {
      engineHosts: { pids: number[]; memoryBudgetMb: number; replaced: number };
    };
  console.log(`memory budget per host: ${(await health()).engineHosts.memoryBudgetMb} MB`);
  const after: number[] = [];
  for (let i = 1; i <= JOBS; i++) {
    const form = new FormData();
    form.append('operation', 'super-resolution');
    form.append('scale', '2');
    form.append('file', new Blob([new Uint8Array(photo)]), 'photo.jpg');
    const start = Date.now();
    const res = await fetch(`${server.url}/api/images`, { method: 'POST', body: form, headers: { cookie } });
    const { id, message } = (await res.json()) as { id?: number; message?: string };
    if (!id) throw new Error(`job ${i} refused: ${message}`);
    let row: { status: string; metadata: { error?: string } };
    for (;;) {
      row = (await (await fetch(`${server.url}/api/images/${id}`, { headers: { cookie } })).json()) as typeof row;
      if (row.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const { engineHosts } = await health();
    const hosts = engineHosts.pids.map((pid) => Math.round(rssMb(pid)));
    const largest = Math.max(...hosts);
    after.push(largest);
    console.log(
      `job ${String(i).padStart(2)}: ${row.status}${row.metadata.error ? ` (${row.metadata.error})` : ''} in ${((Date.now() - start) / 1000).toFixed(1)} s; hosts ${hosts.join(', ')} MB; replaced ${engineHosts.replaced}`,
    );
    if (row.status !== 'completed') process.exitCode = 1;
  }
  const [first, last] = [after[0] ?? 0, after.at(-1) ?? 0];
  const change = ((last - first) / first) * 100;
  console.log(
    `largest host after the first job ${first} MB, after the last ${last} MB: ${change >= 0 ? '+' : ''}${change.toFixed(1)} % (target within 10 %)`,
  );
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
