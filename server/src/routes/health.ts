import { getOperation } from '@ai-editor/core';
import type { FastifyInstance } from 'fastify';
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
}

/** The live state of every part, for the status page and for monitoring. 503 when a part is down. */
export function healthRoutes(app: FastifyInstance, deps: HealthDeps) {
  app.get(
    '/api/health',
    { schema: { summary: 'State of the database, storage, queue and engines', tags: ['health'] } },
    async (_request, reply) => {
      const [database, storage, queueOk, queueStats] = await Promise.all([
        deps.database.ping(),
        deps.storage.ping(),
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
      const ok = database && storage && queueOk;
      reply.code(ok ? 200 : 503);
      return {
        status: ok ? 'ok' : 'degraded',
        database: { ok: database, kind: deps.database.kind },
        storage: { ok: storage, kind: deps.storage.kind },
        queue: { ok: queueOk, kind: deps.queue.kind, ...queueStats },
        // This process's engine hosts (null in an API process of a scale-out deployment: its workers have them).
        engineHosts: deps.pool?.stats() ?? null,
        engines,
        unavailable: engines.filter((e) => !e.available).map((e) => e.operation),
      };
    },
  );
}
