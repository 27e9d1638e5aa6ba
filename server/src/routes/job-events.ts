import type { OutgoingHttpHeaders } from 'node:http';
import { imageJobSchema, jobIdParams } from '@ai-editor/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { owns } from '../repositories/images.js';
import type { JobWatch } from '../services/job-watch.js';
import type { JobService } from '../services/jobs.js';
import { ownerOf } from '../services/sessions.js';

export interface JobEventRouteDeps {
  jobs: JobService;
  /** Reads each watched job once per change for all its streams. */
  watch: JobWatch;
  /** A comment line this often keeps proxies and the idle timeout from closing a quiet stream. */
  heartbeatMs?: number;
}

const HEARTBEAT_MS = 15_000;
/** What the browser's EventSource waits before reconnecting a dropped stream. */
const RETRY_MS = 1_000;

/**
 * `GET /api/images/:id/events`: the job's status as Server-Sent Events. Each change (started, progress, completed,
 * failed) is sent as one `message` whose data is the job, exactly as `GET /api/images/:id` shows it; the first
 * message is the job as it is now, the last is the job completed or failed, and then the stream ends. Owner-only,
 * like every job route (anyone else gets the 404 of a job that does not exist, before any stream starts).
 */
export function jobEventRoutes(fastify: FastifyInstance, deps: JobEventRouteDeps) {
  const { jobs, watch } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const open = new Set<() => void>();
  // Open streams would hold the server's close until their jobs end: they are ended first.
  fastify.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  app.get(
    '/api/images/:id/events',
    {
      schema: {
        operationId: 'streamJob',
        summary: 'A job and its status as Server-Sent Events, until it completes or fails',
        description:
          'Each event\'s data is the job as GET /api/images/:id answers it: first as it is now, then at each change (progress, completion, failure); the stream ends after the job ends. Lines starting with ":" are heartbeats.',
        tags: ['images'],
        params: jobIdParams,
        response: {
          200: {
            description: 'text/event-stream; each `data:` line holds one job (the imageJob schema)',
            content: { 'text/event-stream': { schema: imageJobSchema } },
          },
        },
      },
    },
    async (request, reply) => {
      const owner = ownerOf(request);
      const id = Number(request.params.id);
      await jobs.getOwned(id, owner);

      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        ...(reply.getHeaders() as OutgoingHttpHeaders),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        // Proxies (nginx) pass each event on at once instead of buffering the stream.
        'x-accel-buffering': 'no',
      });
      res.write(`retry: ${RETRY_MS}\n\n`);

      let last = '';
      let ended = false;
      const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), deps.heartbeatMs ?? HEARTBEAT_MS);
      const end = () => {
        if (ended) return;
        ended = true;
        unwatch();
        clearInterval(heartbeat);
        open.delete(end);
        res.end();
      };
      // Sends the job when its view differs from the last one sent, and ends the stream once the job has ended.
      const unwatch = watch.watch(id, (row, view) => {
        if (ended) return;
        if (!row || !owns(owner, row)) return end();
        if (view !== undefined && view !== last) {
          last = view;
          res.write(`data: ${view}\n\n`);
        }
        if (row.status !== 'pending') end();
      });
      open.add(end);
      res.on('close', end);
    },
  );
}
