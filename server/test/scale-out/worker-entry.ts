/** Test-only entry of a worker process: the real worker, with the slow test engine for face enhancement. */
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { startWorkerProcess } from '../../src/worker/process.js';

const log = pino({ level: process.env.LOG_LEVEL ?? 'warn' });
const worker = await startWorkerProcess({
  config: loadConfig(),
  log,
  localEngineOverrides: { 'face-enhancement': new URL('./slow-engine.ts', import.meta.url).href },
});
process.send?.({ ready: worker.name });
process.on('SIGTERM', async () => {
  await worker.close();
  process.send?.({ closed: worker.name });
  process.exit(0);
});
