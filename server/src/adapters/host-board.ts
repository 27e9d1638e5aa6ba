import { Redis } from 'ioredis';
import type { EnginePool, HostStatus } from './engine-pool.js';

/** What one process reports about its engine hosts. */
export interface ProcessHosts {
  name: string;
  reportedAt: string;
  memoryBudgetMb: number;
  replaced: number;
  /** The hosts it started with have warmed their engines (EnginePool.warmedUp). */
  warmedUp: boolean;
  hosts: HostStatus[];
}

/** Where every process that runs engines reports its hosts, and the admin page and readiness read them. */
export interface HostBoard {
  list(): Promise<ProcessHosts[]>;
  close(): Promise<void>;
}

/** How often a process reports its hosts, and how long a report lives (a process gone quiet drops off). */
const REPORT_MS = 5_000;
const REPORT_TTL_S = 20;

export function reportOf(name: string, pool: EnginePool): ProcessHosts {
  const stats = pool.stats();
  return {
    name,
    reportedAt: new Date().toISOString(),
    memoryBudgetMb: stats.memoryBudgetMb,
    replaced: stats.replaced,
    warmedUp: pool.warmedUp,
    hosts: pool.hostStatus(),
  };
}

/** The embedded default: this process's own pool is all there is. */
export function localHostBoard(name: string, pool: EnginePool | undefined): HostBoard {
  return {
    list: async () => (pool ? [reportOf(name, pool)] : []),
    close: async () => {},
  };
}

/**
 * Scale-out: each process with engines writes its report to Redis every few seconds under a key that expires, so
 * that any API process sees every worker's hosts, and a worker that stopped disappears within REPORT_TTL_S.
 */
export function redisHostBoard(url: string, prefix: string, name: string, pool: EnginePool | undefined): HostBoard {
  const redis = new Redis(url, { keyPrefix: `${prefix}:engine-hosts:`, commandTimeout: 1000, maxRetriesPerRequest: 1 });
  redis.on('error', () => {}); // ioredis reconnects by itself; a missed report only ages out
  const report = () => {
    if (pool) redis.set(name, JSON.stringify(reportOf(name, pool)), 'EX', REPORT_TTL_S).catch(() => {});
  };
  report();
  const timer = setInterval(report, REPORT_MS);
  timer.unref();
  return {
    async list() {
      const keys: string[] = [];
      const fullPrefix = `${prefix}:engine-hosts:`;
      let cursor = '0';
      do {
        // SCAN does not apply keyPrefix: match on the full key, read without it.
        const [next, batch] = await redis.scan(cursor, 'MATCH', `${fullPrefix}*`, 'COUNT', 100);
        cursor = next;
        keys.push(...batch.map((k) => k.slice(fullPrefix.length)));
      } while (cursor !== '0');
      if (!keys.length) return [];
      const values = await redis.mget(...keys);
      return values
        .flatMap((v) => (v ? [JSON.parse(v) as ProcessHosts] : []))
        .sort((a, b) => a.name.localeCompare(b.name));
    },
    async close() {
      clearInterval(timer);
      if (pool) await redis.del(name).catch(() => {});
      redis.disconnect();
    },
  };
}
