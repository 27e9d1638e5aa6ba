import { createHash, timingSafeEqual } from 'node:crypto';
import { getOperation, healthSchema } from '@ai-editor/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DatabaseHandle } from '../adapters/db.js';
import type { EnginePool } from '../adapters/engine-pool.js';
import type { JobQueue } from '../adapters/queue.js';
import type { Storage } from '../adapters/storage.js';
import type { EngineRegistry } from '../engines/registry.js';

export interface HealthDeps {
  database: DatabaseHandle;
  storage: Storage;
  queue: JobQueue;
  registry: EngineRegistry;
  pool?: EnginePool;
  /** Storage with less free space than this is reported as not ok. */
  storageMinFreeBytes: number;
  /**
   * Who sees the details (engine host PIDs and memory, free bytes); everyone else gets the summary: each part ok
   * or not, and which operations are available.
   */
  isAdmin?: (request: FastifyRequest) => boolean | Promise<boolean>;
}

/** Health details for operators: the request carries `X-Health-Token: <HEALTH_DETAILS_TOKEN>` (none when unset). */
export function healthTokenCheck(token: string | undefined): (request: FastifyRequest) => boolean {
  if (!token) return () => false;
  const expected = createHash('sha256').update(token).digest();
  return (request) => {
    const given = request.headers['x-health-token'];
    return typeof given === 'string' && timingSafeEqual(createHash('sha256').update(given).digest(), expected);
  };
}

/** The live state of every part, for the status page and for monitoring. 503 when a part is down. */
export function healthRoutes(app: FastifyInstance, deps: HealthDeps) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'State of the database, storage, queue and engines',
        tags: ['health'],
        response: { 200: healthSchema, 503: healthSchema.describe('Some part is down: the same body') },
      },
    },
    async (request, reply) => {
      const [database, storage, queueOk, queueStats] = await Promise.all([
        deps.database.ping(),
        storageHealth(deps.storage, deps.storageMinFreeBytes),
        deps.queue.ping(),
        deps.queue.stats(),
      ]);
      const engines = deps.registry.all().map((b) => ({
        operation: b.operation,
        name: getOperation(b.operation).name,
        engine: b.kind === 'off' ? null : b.kind === 'local' ? 'local' : b.name,
        available: b.kind !== 'off',
        loaded: b.kind === 'local' ? (deps.pool?.isLoaded(b.module) ?? false) : b.kind === 'remote',
        ...(b.kind === 'off' && { reason: b.reason }),
      }));
      const ok = database && storage.ok && queueOk;
      reply.code(ok ? 200 : 503);
      const { freeBytes, minFreeBytes, ...storageSummary } = storage;
      const summary = {
        status: ok ? ('ok' as const) : ('degraded' as const),
        database: { ok: database, kind: deps.database.kind },
        storage: { ...storageSummary, kind: deps.storage.kind },
        queue: { ok: queueOk, kind: deps.queue.kind, ...queueStats },
        engines,
        unavailable: engines.filter((e) => !e.available).map((e) => e.operation),
      };
      if (!(await deps.isAdmin?.(request))) return summary;
      return {
        ...summary,
        storage: { ...summary.storage, freeBytes, minFreeBytes },
        // This process's engine hosts (null in an API process of a scale-out deployment: its workers have them).
        engineHosts: deps.pool?.stats() ?? null,
      };
    },
  );
}

/** Storage is ok when a probe can be written now and, where free space is known, there is enough of it. */
async function storageHealth(storage: Storage, minFreeBytes: number) {
  const [writable, freeBytes] = await Promise.all([storage.ping(), storage.freeBytes?.()]);
  const lowSpace = freeBytes !== undefined && freeBytes < minFreeBytes;
  return {
    ok: writable && !lowSpace,
    writable,
    ...(freeBytes !== undefined && { freeBytes, minFreeBytes }),
    ...(!writable
      ? { reason: 'Files cannot be written' }
      : lowSpace && { reason: `Less than ${Math.round(minFreeBytes / 1024 ** 2)} MB free` }),
  };
}
