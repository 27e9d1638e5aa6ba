import { deletedSchema, jobIdParams, type LibraryItem, libraryPageSchema, libraryQuery } from '@ai-editor/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ImageRow } from '../db/schema.js';
import { imageView } from '../services/job-view.js';
import type { JobService } from '../services/jobs.js';
import type { LibraryService } from '../services/library.js';
import { ownerOf } from '../services/sessions.js';
import { fileResponse } from './schemas.js';

export interface LibraryRouteDeps {
  jobs: JobService;
  library: LibraryService;
  /** Originals and results are deleted this long after creation. */
  retentionHours: number;
}

/** My images: `GET /api/images` (a page of my jobs), `DELETE /api/images/:id`, `DELETE /api/images` (all). */
export function libraryRoutes(fastify: FastifyInstance, deps: LibraryRouteDeps) {
  const { jobs, library } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  const listItem = async (row: ImageRow): Promise<LibraryItem> => {
    const hasPicture = !row.purgedAt && Boolean(row.resultKeys[0] || row.originalKey);
    return {
      ...(await imageView(row, jobs)),
      // The status in the address: the picture changes once, when the result replaces the photo.
      thumbnailUrl: hasPicture ? `/api/images/${row.id}/thumbnail?v=${row.status}` : null,
      expiresAt: new Date(row.createdAt.getTime() + deps.retentionHours * 3_600_000).toISOString(),
    };
  };

  app.get(
    '/api/images',
    {
      schema: {
        operationId: 'listMyImages',
        summary: 'My images: my jobs, newest first, one page at a time',
        tags: ['library'],
        querystring: libraryQuery,
        response: { 200: libraryPageSchema },
      },
    },
    async (request) => {
      const cursor = request.query.cursor ? Number(request.query.cursor) : undefined;
      const page = await library.list(ownerOf(request), { cursor, limit: request.query.limit });
      return { items: await Promise.all(page.items.map(listItem)), nextCursor: page.nextCursor };
    },
  );

  app.delete(
    '/api/images/:id',
    {
      schema: {
        operationId: 'deleteMyImage',
        summary: 'Delete one of my jobs now: its files and its record',
        tags: ['library'],
        params: jobIdParams,
        response: { 204: z.undefined().describe('Deleted') },
      },
    },
    async (request, reply) => {
      await library.remove(ownerOf(request), Number(request.params.id));
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/images',
    {
      schema: {
        operationId: 'deleteAllMyImages',
        summary: 'Delete all of my jobs now',
        tags: ['library'],
        response: { 200: deletedSchema },
      },
    },
    async (request) => ({ deleted: await library.removeAll(ownerOf(request)) }),
  );

  app.get(
    '/api/images/:id/thumbnail',
    {
      schema: {
        operationId: 'getThumbnail',
        summary: 'A small WebP of the result (or of the photo while it runs)',
        tags: ['files'],
        params: jobIdParams,
        response: { 200: fileResponse('image/webp', 'The thumbnail') },
      },
    },
    async (request, reply) => {
      const row = await jobs.getOwned(Number(request.params.id), ownerOf(request));
      const thumb = await library.thumbnail(row);
      reply.header('Content-Type', 'image/webp');
      reply.header('Cache-Control', thumb.final ? 'private, max-age=86400, immutable' : 'no-store');
      reply.header('X-Content-Type-Options', 'nosniff');
      return reply.send(thumb.bytes);
    },
  );
}
