/**
 * Fair scheduling benchmark. Visitor A submits a long job (super-resolution 2x of a 1920x1350 photo); while it runs,
 * visitor B submits short jobs (pencil sketch of a 1920x1280 photo) and Select object clicks. It prints, per pool
 * setting (BENCH_QUICK_HOSTS, default "1,0": one quick host beside the heavy one, then none, as before the lanes):
 * - each short job's wait (submitted → its engine started, the server's clock) and its whole time (→ completed);
 * - each click's answer time;
 * - the long job's own time (started → completed) with the short work beside it, and alone; their ratio.
 * Targets (with a quick host): short wait <= 3 s; long job <= 1.3x its time alone.
 * Run: npm run bench:fairness
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import sharp from 'sharp';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { signIn } from './support/sign-in.js';

const SHORTS = Number(process.env.BENCH_SHORTS ?? 3);
const settings = (process.env.BENCH_QUICK_HOSTS ?? '1,0').split(',').map(Number);
const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const longPhoto = await sharp(path.join(fixtures, 'astronaut.png'))
  .resize(1920, 1350, { fit: 'fill' })
  .jpeg({ quality: 92 })
  .toBuffer();
const shortPhoto = await sharp(path.join(fixtures, 'coffee.png')).resize(1920, 1280, { fit: 'fill' }).jpeg().toBuffer();
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

interface Row {
  id: number;
  status: string;
  createdAt: string;
  completedAt: string | null;
  metadata: { startedAt?: string };
}

/** A free port for this run's Auth emulator (another may hold the default one). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

async function run(quickHosts: number) {
  const config = loadConfig({
    ...process.env,
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'aie-bench-')),
    MODEL_CACHE_DIR: path.resolve(import.meta.dirname, '../data/models'),
    QUICK_HOSTS: String(quickHosts),
    AUTH_EMULATOR_PORT: String(await freePort()),
    // On a loaded machine a click may wait minutes: the connection must outlive it, or the click is dropped.
    IDLE_TIMEOUT_MS: '1800000',
    // More jobs than a visitor's daily allowance; the rules themselves are tested elsewhere.
    DAILY_USES_PER_OPERATION: '1000',
  });
  const handle = await buildApp({ config });
  const base = await handle.app.listen({ port: 0, host: '127.0.0.1' });
  const a = await signIn(base);
  await delay(5);
  const b = await signIn(base);

  const submit = async (cookie: string, operation: string, photo: Buffer, params: Record<string, string> = {}) => {
    const form = new FormData();
    form.append('operation', operation);
    for (const [k, v] of Object.entries(params)) form.append(k, v);
    form.append('file', new Blob([new Uint8Array(photo)]), 'photo');
    const res = await fetch(`${base}/api/images`, { method: 'POST', body: form, headers: { cookie } });
    const body = (await res.json()) as { id?: number; message?: string };
    if (!body.id) throw new Error(`submission refused: ${body.message}`);
    return body.id;
  };
  const done = async (cookie: string, id: number): Promise<Row> => {
    for (;;) {
      const row = (await (await fetch(`${base}/api/images/${id}`, { headers: { cookie } })).json()) as Row;
      if (row.status === 'completed') return row;
      if (row.status !== 'pending') throw new Error(`job ${id} ${row.status}`);
      await delay(100);
    }
  };
  const click = async (cookie: string) => {
    const form = new FormData();
    form.append('operation', 'object-removal');
    form.append('x', '960');
    form.append('y', '700');
    form.append('file', new Blob([new Uint8Array(shortPhoto)]), 'photo');
    const t = performance.now();
    const res = await fetch(`${base}/api/select-object`, { method: 'POST', body: form, headers: { cookie } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`select-object ${res.status}`);
    return performance.now() - t;
  };
  const time = (from: string | undefined, to: string | null | undefined) =>
    Date.parse(to ?? '') - Date.parse(from ?? '');
  const long = () => submit(a, 'super-resolution', longPhoto, { scale: '2' });
  const short = () => submit(b, 'pencil-sketch', shortPhoto);

  // Warm: every engine used below runs once.
  await Promise.all([done(a, await long()), done(b, await short()), click(b)]);

  const alone = await done(a, await long());
  const longId = await long();
  await delay(1500);
  const shorts: Row[] = [];
  const clicks: number[] = [];
  for (let i = 0; i < SHORTS; i++) {
    shorts.push(await done(b, await short()));
    clicks.push(await click(b));
    await delay(1000);
  }
  const shared = await done(a, longId);
  const rss = handle.pool?.stats().rssMb.join(' MB, ');
  const stillRunning = Date.parse(shared.completedAt ?? '') > Date.parse(shorts.at(-1)?.completedAt ?? '');
  await handle.close();

  const waits = shorts.map((r) => time(r.createdAt, r.metadata.startedAt));
  const totals = shorts.map((r) => time(r.createdAt, r.completedAt));
  const longAlone = time(alone.metadata.startedAt, alone.completedAt);
  const longShared = time(shared.metadata.startedAt, shared.completedAt);
  console.log(
    `\nQUICK_HOSTS=${quickHosts}, ENGINE_HOSTS=${config.engineHosts}, ${config.inferenceThreads} threads per host`,
  );
  console.log(`engine hosts' resident memory (heavy first, then quick): ${rss} MB`);
  console.log(`short job (B's pencil sketch, 1920x1280) while A's 2x upscale of 1920x1350 runs:`);
  console.log(`  wait for its engine   ${waits.map(s).join(', ')}   max ${s(Math.max(...waits))}   (target <= 3 s)`);
  console.log(`  submit to completed   ${totals.map(s).join(', ')}`);
  console.log(`  Select object click   ${clicks.map(s).join(', ')}`);
  console.log(`  all short work done before the long job: ${stillRunning}`);
  console.log(
    `long job: alone ${s(longAlone)}, beside the short work ${s(longShared)}, ratio ${(longShared / longAlone).toFixed(2)}   (target <= 1.3)`,
  );
}

console.log(`fairness, load ${(os.loadavg()[0] as number).toFixed(1)} at start, ${os.availableParallelism()} cores`);
for (const quick of settings) await run(quick);
console.log(`load ${(os.loadavg()[0] as number).toFixed(1)} at the end`);
process.exit(0);
