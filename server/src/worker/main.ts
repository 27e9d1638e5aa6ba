import { pino } from 'pino';
import { loadConfig } from '../config.js';
import { ignoreBrokenPipes } from '../shutdown.js';
import { exitOnStartupError } from '../startup-errors.js';
import { startWorkerProcess } from './process.js';

/** `npm run worker`: one scale-out worker process (needs DATABASE_URL and REDIS_URL; S3_* for shared storage). */
ignoreBrokenPipes();
const log = pino({ level: process.env.LOG_LEVEL ?? 'info' });
const worker = await startWorkerProcess({ config: loadConfig(), log }).catch(exitOnStartupError);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    // A second signal ends the process at once (its running jobs stay pending for another worker).
    if (stopping) process.exit(1);
    stopping = true;
    log.info(`${signal}: finishing running jobs, taking no new ones`);
    try {
      await worker.close();
      log.info('worker stopped');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'worker did not stop cleanly');
      process.exit(1);
    }
  });
}
