import { AppError, checkOutputSize, getOperation, isOperationId, type OperationId, parseParams } from '@ai-editor/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Storage } from '../adapters/storage.js';
import type { ImageRow } from '../db/schema.js';
import type { JobService } from '../services/jobs.js';
import type { Rules } from '../services/rules.js';
import { ownerOf } from '../services/sessions.js';
import { checkFiles, readSubmission, type UploadLimits } from '../services/uploads.js';
import { fileParams, idParams, imageSchema } from './schemas.js';

const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

/** The API's view of a job (SPEC §7's fields, plus timestamps and every output). */
export async function imageView(row: ImageRow, jobs: JobService) {
  const base = `/api/images/${row.id}`;
  const purged = row.purgedAt !== null;
  const processedUrls = purged ? [] : row.resultKeys.map((_, i) => `${base}/result/${i}`);
  const position = await jobs.queuePosition(row);
  return {
    id: row.id,
    operation: row.operation,
    status: row.status,
    originalUrl: row.originalKey && !purged ? `${base}/original` : null,
    processedUrl: processedUrls[0] ?? null,
    processedUrls,
    downloadUrls: processedUrls.map((_, i) => `${base}/download/${i}`),
    parameters: row.parameters,
    metadata: {
      ...row.metadata,
      ...(position !== undefined && { queuePosition: position }),
      ...(purged && { expired: true }),
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

export interface ImageRouteDeps {
  jobs: JobService;
  storage: Storage;
  limits: UploadLimits;
  /** Who may submit (services/rules.ts): checked before the upload is validated, counted once it is valid. */
  admission?: Pick<Rules, 'check' | 'admit'>;
  /** Rules that apply to file downloads (the sign-in service refuses guests here). */
  beforeDownload?: (request: FastifyRequest, row: ImageRow, attachment: boolean) => Promise<void>;
}

export function imageRoutes(app: FastifyInstance, deps: ImageRouteDeps) {
  const { jobs, storage, limits } = deps;

  app.post(
    '/api/images',
    {
      schema: {
        summary: 'Submit a job (multipart form)',
        tags: ['images'],
        consumes: ['multipart/form-data'],
        querystring: {
          type: 'object',
          properties: {
            operation: { type: 'string', description: 'The operation, so that guest rules answer before the upload' },
          },
        },
        response: { 201: imageSchema },
      },
    },
    async (request, reply) => {
      // Who may ask for what is answered as soon as the operation is known, before the upload is read.
      const { operation, fields, files } = await readSubmission(request, async (name) => {
        await deps.admission?.check(request, reply, name);
        jobs.assertAvailable(name);
      });
      const op = getOperation(operation);
      const checked = await checkFiles(op, files, limits);
      const params = parseParams(op, fields);
      checkOutputSize(operation, params, checked.file, limits.maxOutputPixels);
      const admitted = await deps.admission?.admit(request, operation);
      let row: ImageRow;
      try {
        row = await jobs.submit(ownerOf(request), operation as OperationId, params, checked);
      } catch (err) {
        await admitted?.cancelled();
        throw err;
      }
      await admitted?.accepted(row);
      reply.code(201);
      return imageView(row, jobs);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/images/:id',
    { schema: { summary: 'A job and its status', tags: ['images'], params: idParams, response: { 200: imageSchema } } },
    async (request) => {
      const row = await jobs.getOwned(Number(request.params.id), ownerOf(request));
      return imageView(row, jobs);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/images/:id/cancel',
    {
      schema: {
        summary: 'Cancel a pending or running job (it ends failed, "Cancelled"; the use is given back)',
        tags: ['images'],
        params: idParams,
        response: { 200: imageSchema },
      },
    },
    async (request) => imageView(await jobs.cancel(Number(request.params.id), ownerOf(request)), jobs),
  );

  async function sendFile(reply: FastifyReply, row: ImageRow, key: string | null | undefined, download: boolean) {
    if (row.purgedAt) throw new AppError('RESULT_EXPIRED');
    if (!key) throw new AppError('RESULT_NOT_READY');
    const ext = key.slice(key.lastIndexOf('.') + 1);
    const bytes = await storage.get(key);
    reply.header('Content-Type', CONTENT_TYPES[ext] ?? 'application/octet-stream');
    // Owner-only and never changing once written: browsers may keep it, shared caches may not.
    reply.header('Cache-Control', 'private, max-age=86400, immutable');
    reply.header('X-Content-Type-Options', 'nosniff');
    if (download) reply.header('Content-Disposition', `attachment; filename="${row.operation}-result.png"`);
    return reply.send(bytes);
  }

  app.get<{ Params: { id: string } }>(
    '/api/images/:id/original',
    { schema: { summary: 'The uploaded photo', tags: ['files'], params: idParams } },
    async (request, reply) => {
      const row = await jobs.getOwned(Number(request.params.id), ownerOf(request));
      return sendFile(reply, row, row.originalKey, false);
    },
  );

  for (const download of [false, true]) {
    const path = download ? '/api/images/:id/download/:index' : '/api/images/:id/result/:index';
    const summary = download ? 'A result PNG as an attachment' : 'A result PNG';
    app.get<{ Params: { id: string; index: string } }>(
      path,
      { schema: { summary, tags: ['files'], params: fileParams } },
      async (request, reply) => {
        const row = await jobs.getOwned(Number(request.params.id), ownerOf(request));
        await deps.beforeDownload?.(request, row, download);
        const index = Number(request.params.index);
        // A finished job has all the results it will ever have: an index past them does not exist (not 'not yet').
        if (!row.purgedAt && row.status !== 'pending' && !row.resultKeys[index]) throw new AppError('NOT_FOUND');
        return sendFile(reply, row, row.resultKeys[index], download);
      },
    );
  }
}
