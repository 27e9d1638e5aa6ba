import type { OutgoingHttpHeaders } from 'node:http';
import { imageJobSchema, jobIdParams } from '@ai-editor/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { JobChanges } from '../adapters/job-events.js';
import { owns } from '../repositories/images.js';
import { imageView } from '../services/job-view.js';
import type { JobService } from '../services/jobs.js';
import { ownerOf } from '../services/sessions.js';

export interface JobEventRouteDeps {
  jobs: JobService;
  changes: JobChanges;
  /** A comment line this often keeps proxies and the idle timeout from closing a quiet stream. */
  heartbeatMs?: number;
  /** The job is read again this often even without a notice (queue position; a notice lost with Redis). */
  refreshMs?: number;
}

const HEARTBEAT_MS = 15_000;
const REFRESH_MS = 5_000;
/** What the browser's EventSource waits before reconnecting a dropped stream. */
const RETRY_MS = 1_000;

/**
 * `GET /api/images/:id/events`: the job's status as Server-Sent Events. Each change (started, progress, completed,
 * failed) is sent as one `message` whose data is the job, exactly as `GET /api/images/:id` shows it; the first
 * message is the job as it is now, the last is the job completed or failed, and then the stream ends. Owner-only,
 * like every job route (anyone else gets the 404 of a job that does not exist, before any stream starts).
 */
export function jobEventRoutes(fastify: FastifyInstance, deps: JobEventRouteDeps) {
  const { jobs, changes } = deps;
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

      let ended = false;
      let last = '';
      let reading = false;
      let again = false;
      const end = () => {
        if (ended) return;
        ended = true;
        unsubscribe();
        clearInterval(heartbeat);
        clearInterval(refresh);
        open.delete(end);
        res.end();
      };
      // Reads the row and sends it when it differs from the last sent; one read at a time, the last notice wins.
      const send = async () => {
        if (ended) return;
        if (reading) {
          again = true;
          return;
        }
        reading = true;
        try {
          do {
            again = false;
            const row = await jobs.find(id);
            if (ended) return;
            if (!row || !owns(owner, row)) return end();
            const data = JSON.stringify(await imageView(row, jobs));
            if (data !== last) {
              last = data;
              res.write(`data: ${data}\n\n`);
            }
            if (row.status !== 'pending') return end();
          } while (again);
        } catch (err) {
          request.log.warn({ err, job: id }, 'status stream read failed');
        } finally {
          reading = false;
        }
      };
      // Listening before the first read: a change between the two is not missed.
      const unsubscribe = changes.subscribe(id, () => void send());
      const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), deps.heartbeatMs ?? HEARTBEAT_MS);
      const refresh = setInterval(() => void send(), deps.refreshMs ?? REFRESH_MS);
      open.add(end);
      res.on('close', end);
      await send();
    },
  );
}
