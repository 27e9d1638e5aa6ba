import type { FastifyInstance } from 'fastify';
import type { ImageRow } from '../db/schema.js';
import type { JobService } from '../services/jobs.js';
import type { LibraryService } from '../services/library.js';
import { ownerOf } from '../services/sessions.js';
import { imageView } from './images.js';
import { idParams, imageSchema } from './schemas.js';

export interface LibraryRouteDeps {
  jobs: JobService;
  library: LibraryService;
  /** Originals and results are deleted this long after creation. */
  retentionHours: number;
}

const listItemSchema = {
  ...imageSchema,
  properties: {
    ...imageSchema.properties,
    thumbnailUrl: { type: ['string', 'null'] },
    expiresAt: { type: 'string', format: 'date-time', description: 'When the photo and its results are deleted' },
  },
} as const;

const listQuery = {
  type: 'object',
  properties: {
    cursor: { type: 'string', pattern: '^[0-9]{0,12}$', description: 'nextCursor of the previous page' },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
  },
} as const;

/** My images: `GET /api/images` (a page of my jobs), `DELETE /api/images/:id`, `DELETE /api/images` (all). */
export function libraryRoutes(app: FastifyInstance, deps: LibraryRouteDeps) {
  const { jobs, library } = deps;

  const listItem = async (row: ImageRow) => {
    const hasPicture = !row.purgedAt && Boolean(row.resultKeys[0] || row.originalKey);
    return {
      ...(await imageView(row, jobs)),
      // The status in the address: the picture changes once, when the result replaces the photo.
      thumbnailUrl: hasPicture ? `/api/images/${row.id}/thumbnail?v=${row.status}` : null,
      expiresAt: new Date(row.createdAt.getTime() + deps.retentionHours * 3_600_000).toISOString(),
    };
  };

  app.get<{ Querystring: { cursor?: string; limit: number } }>(
    '/api/images',
    {
      schema: {
        summary: 'My images: my jobs, newest first, one page at a time',
        tags: ['library'],
        querystring: listQuery,
        response: {
          200: {
            type: 'object',
            properties: {
              items: { type: 'array', items: listItemSchema },
              nextCursor: { type: ['integer', 'null'], description: 'Pass as cursor for the next page' },
            },
            required: ['items', 'nextCursor'],
          },
        },
      },
    },
    async (request) => {
      const cursor = request.query.cursor ? Number(request.query.cursor) : undefined;
      const page = await library.list(ownerOf(request), { cursor, limit: request.query.limit });
      return { items: await Promise.all(page.items.map(listItem)), nextCursor: page.nextCursor };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/images/:id',
    {
      schema: {
        summary: 'Delete one of my jobs now: its files and its record',
        tags: ['library'],
        params: idParams,
        response: { 204: { type: 'null' } },
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
        summary: 'Delete all of my jobs now',
        tags: ['library'],
        response: { 200: { type: 'object', properties: { deleted: { type: 'integer' } }, required: ['deleted'] } },
      },
    },
    async (request) => ({ deleted: await library.removeAll(ownerOf(request)) }),
  );

  app.get<{ Params: { id: string } }>(
    '/api/images/:id/thumbnail',
    {
      schema: {
        summary: 'A small WebP of the result (or of the photo while it runs)',
        tags: ['files'],
        params: idParams,
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
