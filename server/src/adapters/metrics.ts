import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ImageRow } from '../db/schema.js';
import type { FailureReason } from './engine-pool.js';
import type { QueueStats } from './queue.js';

/** Seconds: from a status poll (ms) to a long super-resolution (minutes). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const JOB_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];

/**
 * The Prometheus metrics of one process (the API, or a scale-out worker), each in its own registry so that several
 * servers in one process (tests) do not mix their figures.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });
  private readonly jobDuration = new Histogram({
    name: 'job_duration_seconds',
    help: "Jobs from the engine's start to their outcome, by operation and outcome (completed or the error code)",
    labelNames: ['operation', 'outcome'] as const,
    buckets: JOB_BUCKETS,
    registers: [this.registry],
  });
  private readonly hostEnds = new Counter({
    name: 'engine_host_ends_total',
    help: 'Engine hosts ended, by cause: crashed, memory, timeout, cancelled (a replacement starts for each)',
    labelNames: ['cause'] as const,
    registers: [this.registry],
  });
  private readonly hostRestarts = new Counter({
    name: 'engine_host_restarts_total',
    help: 'Engine hosts started to replace an ended one',
    registers: [this.registry],
  });
  private readonly refused = new Counter({
    name: 'uses_refused_total',
    help: 'Requests refused by a limit, by the error code that says which',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  constructor(opts: { queueStats?: () => Promise<QueueStats> } = {}) {
    collectDefaultMetrics({ register: this.registry });
    const { queueStats } = opts;
    if (queueStats) {
      new Gauge({
        name: 'job_queue_depth',
        help: 'Jobs in the queue: waiting, or active (running)',
        labelNames: ['state'] as const,
        registers: [this.registry],
        async collect() {
          const stats = await queueStats().catch(() => undefined);
          if (!stats) return;
          this.set({ state: 'waiting' }, stats.waiting);
          this.set({ state: 'active' }, stats.active);
        },
      });
    }
  }

  httpRequest(route: string, method: string, status: number, seconds: number): void {
    this.httpDuration.observe({ route, method, status: String(status) }, seconds);
  }

  /** A job's outcome, timed from its start (metadata.startedAt) to now; jobs that never started are not timed. */
  jobEnded(row: ImageRow): void {
    const started = Date.parse(String(row.metadata.startedAt ?? ''));
    if (Number.isNaN(started)) return;
    const outcome = row.status === 'completed' ? 'completed' : String(row.metadata.errorCode ?? 'failed');
    const end = (row.completedAt ?? new Date()).getTime();
    this.jobDuration.observe({ operation: row.operation, outcome }, Math.max(0, end - started) / 1000);
  }

  hostEnded(cause: FailureReason, replaced: boolean): void {
    if (!replaced) return; // the pool is closing: not a kill
    this.hostEnds.inc({ cause });
    this.hostRestarts.inc();
  }

  refusedBy(limit: string): void {
    this.refused.inc({ limit });
  }
}

/** The codes of limits that refuse a use (counted in uses_refused_total). */
export const LIMIT_CODES = new Set([
  'DAILY_LIMIT_REACHED',
  'RATE_LIMITED',
  'FEATURE_RESTRICTED',
  'DOWNLOAD_RESTRICTED',
  'OUTPUT_TOO_LARGE',
  'ACCOUNT_SUSPENDED',
]);

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `GET /metrics` on its own listener (METRICS_PORT on METRICS_HOST), never on the public port. */
export async function serveMetrics(metrics: Metrics, port: number, host: string): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    metrics.registry.metrics().then(
      (body) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body),
      (err: Error) => res.writeHead(500).end(err.message),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
