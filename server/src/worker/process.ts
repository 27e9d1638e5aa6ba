import type { OperationId } from '@ai-editor/core';
import { BullmqQueue } from '../adapters/bullmq-queue.js';
import { type DatabaseHandle, openDatabase } from '../adapters/db.js';
import { redisHostBoard } from '../adapters/host-board.js';
import { Metrics, type MetricsServer, serveMetrics } from '../adapters/metrics.js';
import { createEnginePool, laneWorkers, selectJobChanges, selectStorage, workerName } from '../adapters/select.js';
import type { Config } from '../config.js';
import { createEngineRegistry } from '../engines/registry.js';
import type { Logger } from '../logging.js';
import { ApiKeyRepository } from '../repositories/api-keys.js';
import { ImageRepository } from '../repositories/images.js';
import { WebhookDeliveryRepository } from '../repositories/webhook-deliveries.js';
import { describeJob } from '../services/job-hints.js';
import { JobRunner } from '../services/job-runner.js';
import { imageView } from '../services/job-view.js';
import { JobService } from '../services/jobs.js';
import { WebhookService, watchJobsForWebhooks } from '../services/webhooks.js';

const RESUME_INTERVAL_MS = 60_000;

export interface WorkerProcessOptions {
  config: Config;
  log: Logger;
  /** Tests register their own engine modules here (as with buildApp); production never does. */
  localEngineOverrides?: Partial<Record<OperationId, string>>;
}

export interface WorkerProcess {
  name: string;
  jobs: JobService;
  database: DatabaseHandle;
  metrics: Metrics;
  /** Where this worker's `/metrics` is served (METRICS_PORT); absent when off. */
  metricsUrl?: string;
  /** Stops taking jobs, lets the running ones finish, then ends the engine hosts and connections. */
  close(): Promise<void>;
}

/**
 * A scale-out worker process (`npm run worker`): takes image jobs from the Redis queue and runs each through
 * `JobRunner.run`, with local engines in this process's engine hosts (child processes). Progress and outcomes go to the
 * database, where the API processes read them.
 */
export async function startWorkerProcess(opts: WorkerProcessOptions): Promise<WorkerProcess> {
  const { config, log } = opts;
  const { redisUrl, queuePrefix } = config.scaleOut;
  if (!redisUrl) throw new Error('The worker process needs REDIS_URL (the queue it takes jobs from)');
  if (!config.databaseUrl) {
    throw new Error('The worker process needs DATABASE_URL: the embedded database belongs to one process only');
  }
  if (!config.scaleOut.s3) log.warn('Local file storage: API and workers must share DATA_DIR (same machine or volume)');

  const database = await openDatabase(config);
  const storage = selectStorage(config);
  const registry = createEngineRegistry(config, { localOverrides: opts.localEngineOverrides });
  const images = new ImageRepository(database.db);
  // Its lane workers take jobs (consume, below); it also re-enqueues pending rows and removes cancelled entries.
  const describe = (id: number) => describeJob(images, id);
  const queue = new BullmqQueue({ redisUrl, prefix: queuePrefix }, describe, log, laneWorkers(config, log));
  const metrics = new Metrics({ queueStats: () => queue.stats() });
  const pool = createEnginePool(config, registry, log, (cause, replaced) => metrics.hostEnded(cause, replaced));
  // Progress and outcomes are told to the API processes, which stream them to the visitors watching.
  const changes = selectJobChanges(config, log);
  const jobs = new JobService({ images, storage, registry, queue, config, log, changes });
  const runner = new JobRunner({ jobs, images, storage, registry, pool, config, log });
  // The worker that finishes a job sends its webhook; every process retries the due ones.
  const webhooks = new WebhookService({
    deliveries: new WebhookDeliveryRepository(database.db),
    keys: new ApiKeyRepository(database.db),
    view: (row) => imageView(row, jobs),
    allowPrivate: config.webhookAllowPrivate,
    log,
  });
  watchJobsForWebhooks(jobs, webhooks, log);
  webhooks.start();
  jobs.events.on('completed', (row) => metrics.jobEnded(row));
  jobs.events.on('failed', (row) => metrics.jobEnded(row));

  const name = workerName();
  // Every API process's admin page and readiness probe see this worker's hosts.
  const hosts = redisHostBoard(redisUrl, queuePrefix, name, pool);
  let metricsServer: MetricsServer | undefined;
  if (config.metrics.port) metricsServer = await serveMetrics(metrics, config.metrics.port, config.metrics.host);
  queue.consume(runner);
  await Promise.all(queue.workers.map((w) => w.waitUntilReady()));

  // Rows are the truth and enqueueing is idempotent: put back any pending job whose queue entry was lost (Redis
  // unreachable at submit time, or restarted without persistence), now and then every minute.
  const resume = (level: 'info' | 'debug') =>
    jobs
      .resumePending()
      .then((n) => n && log[level]({ pending: n }, 'pending jobs checked into the queue'))
      .catch((err) => log.error({ err }, 'could not re-enqueue pending jobs'));
  await resume('info');
  const resumeTimer = setInterval(() => resume('debug'), RESUME_INTERVAL_MS);
  resumeTimer.unref();
  log.info({ name, concurrency: config.scaleOut.workerConcurrency, engineHosts: config.engineHosts }, 'worker ready');

  return {
    name,
    jobs,
    database,
    metrics,
    metricsUrl: metricsServer?.url,
    async close() {
      clearInterval(resumeTimer);
      await Promise.all([metricsServer?.close(), hosts.close()]);
      // Running jobs get a grace period; the ones still running after it stay pending, and BullMQ hands them to
      // another worker once their lock expires (or to this one at its next start).
      await runner.stopAfter(
        Promise.all(queue.workers.map((w) => w.close())).then(() => {}),
        config.shutdownGraceMs,
      );
      await webhooks.stop();
      await queue.close();
      await changes.close();
      await database.close();
    },
  };
}
