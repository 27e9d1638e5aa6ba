import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DatabaseHandle } from '../adapters/db.js';
import type { HostBoard } from '../adapters/host-board.js';
import type { JobQueue } from '../adapters/queue.js';
import type { Storage } from '../adapters/storage.js';

const liveSchema = z.object({ status: z.literal('ok') });
const readySchema = z.object({
  status: z.enum(['ready', 'not-ready']),
  checks: z.object({ database: z.boolean(), storage: z.boolean(), queue: z.boolean(), engineHost: z.boolean() }),
});

export interface ProbeDeps {
  database: DatabaseHandle;
  storage: Storage;
  queue: JobQueue;
  /** Every process's engine hosts: this one's, or in scale-out the workers' reports. */
  hosts: HostBoard;
}

/**
 * Probes for orchestrators: `live` answers while the process serves requests (restart it when it stops);
 * `ready` when the database, storage and queue answer and at least one engine host is ready, in a process whose
 * hosts have warmed their engines at start (send it traffic: a first job costs what a later one does).
 */
export function healthProbeRoutes(fastify: FastifyInstance, deps: ProbeDeps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/health/live',
    {
      schema: {
        operationId: 'getLiveness',
        summary: 'Liveness: the process answers',
        tags: ['health'],
        response: { 200: liveSchema },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/api/health/ready',
    {
      schema: {
        operationId: 'getReadiness',
        summary: 'Readiness: database, storage, queue and at least one warmed-up engine host ready (503 otherwise)',
        tags: ['health'],
        response: { 200: readySchema, 503: readySchema },
      },
    },
    async (_request, reply) => {
      const [database, storage, queue, engineHost] = await Promise.all([
        deps.database.ping().catch(() => false),
        deps.storage.ping().catch(() => false),
        deps.queue.ping().catch(() => false),
        deps.hosts
          .list()
          .then((processes) => processes.some((p) => p.warmedUp && p.hosts.some((h) => h.ready)))
          .catch(() => false),
      ]);
      const ready = database && storage && queue && engineHost;
      reply.code(ready ? 200 : 503);
      return {
        status: ready ? ('ready' as const) : ('not-ready' as const),
        checks: { database, storage, queue, engineHost },
      };
    },
  );
}
