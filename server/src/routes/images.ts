import {
  AppError,
  formatByExtension,
  IMAGE_FORMATS,
  imageJobSchema,
  jobIdParams,
  LIMITS,
  type OperationId,
  resultFileName,
  resultFileParams,
  submitFormSchema,
  submitHeaders,
  submitQuery,
} from '@ai-editor/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { previewPng } from '../adapters/image-preview.js';
import { encodeOutput } from '../adapters/output-format.js';
import type { Storage } from '../adapters/storage.js';
import type { ImageRow } from '../db/schema.js';
import { imageView, isGuestJob } from '../services/job-view.js';
import type { JobService } from '../services/jobs.js';
import type { Rules } from '../services/rules.js';
import { ownerOf } from '../services/sessions.js';
import type { SubmitJob } from '../services/submit-job.js';
import { fileResponse, streamedBody } from './schemas.js';
import { readSubmission } from './submission.js';
import { submitterOf } from './visitor.js';

export interface ImageRouteDeps {
  jobs: JobService;
  submit: SubmitJob;
  storage: Storage;
  /** Who may submit (services/rules.ts): a retry is checked like a submission. */
  admission?: Pick<Rules, 'check'>;
  /** Rules that apply to file downloads (the sign-in service refuses guests here). */
  beforeDownload?: Rules['beforeDownload'];
}

export function imageRoutes(fastify: FastifyInstance, deps: ImageRouteDeps) {
  const { jobs, submit, storage } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/images',
    {
      schema: {
        operationId: 'submitJob',
        summary: 'Submit a job (multipart form)',
        tags: ['images'],
        consumes: ['multipart/form-data'],
        description:
          'Send an `Idempotency-Key` header (a UUID per submission) to make retries safe: the same key again within 24 hours answers 200 with the job it made, without a new use; the same key with a different submission is a 422 (IDEMPOTENCY_KEY_REUSED).',
        querystring: submitQuery,
        headers: submitHeaders,
        body: submitFormSchema,
        response: {
          201: imageJobSchema.describe('The new job'),
          200: imageJobSchema.describe('The job an earlier request with this Idempotency-Key made'),
        },
      },
      validatorCompiler: streamedBody,
    },
    async (request, reply) => {
      // Who may ask for what is answered as soon as the operation is known, before the upload is read.
      const submission = await readSubmission(request, (name) => submit.precheck(submitterOf(request), name));
      const { row, replayed, allowance } = await submit.submit(submission, {
        ...ownerOf(request),
        apiKeyId: request.apiKeyId,
        idempotencyKey: request.headers['idempotency-key'],
      });
      if (allowance) {
        reply.header('RateLimit-Limit', String(allowance.limit));
        reply.header('RateLimit-Remaining', String(allowance.remaining));
        reply.header('RateLimit-Reset', String(allowance.resetS));
      }
      if (replayed) reply.header('Idempotent-Replayed', 'true');
      reply.code(replayed ? 200 : 201);
      return imageView(row, jobs);
    },
  );

  app.get(
    '/api/images/:id',
    {
      schema: {
        operationId: 'getJob',
        summary: 'A job and its status',
        tags: ['images'],
        params: jobIdParams,
        response: { 200: imageJobSchema },
      },
    },
    async (request) => {
      const row = await jobs.getOwned(Number(request.params.id), ownerOf(request));
      return imageView(row, jobs);
    },
  );

  app.post(
    '/api/images/:id/retry',
    {
      schema: {
        operationId: 'retryFill',
        summary:
          'Another try of an object-removal or inpainting job on the same photo and mask, with other source choices; no use is counted within 10 minutes of the first job (up to 5 tries)',
        tags: ['images'],
        params: jobIdParams,
        response: { 201: imageJobSchema },
      },
    },
    async (request, reply) => {
      const first = await jobs.getOwned(Number(request.params.id), ownerOf(request));
      await deps.admission?.check(submitterOf(request), first.operation as OperationId);
      const row = await jobs.retry(ownerOf(request), first.id);
      reply.code(201);
      return imageView(row, jobs);
    },
  );

  app.get(
    '/api/images/:id/tries',
    {
      schema: {
        operationId: 'listTries',
        summary: 'A job and its other tries (Try another fill), the first job first',
        tags: ['images'],
        params: jobIdParams,
        response: { 200: z.object({ tries: z.array(imageJobSchema) }) },
      },
    },
    async (request) => {
      const rows = await jobs.tries(ownerOf(request), Number(request.params.id));
      return { tries: await Promise.all(rows.map((r) => imageView(r, jobs))) };
    },
  );

  app.post(
    '/api/images/:id/cancel',
    {
      schema: {
        operationId: 'cancelJob',
        summary: 'Cancel a pending or running job (it ends failed, "Cancelled"; the use is given back)',
        tags: ['images'],
        params: jobIdParams,
        response: { 200: imageJobSchema },
      },
    },
    async (request) => imageView(await jobs.cancel(Number(request.params.id), ownerOf(request)), jobs),
  );

  /** A stored file; a result (`output`) is served in the format its job asked for (one PNG is stored). */
  async function sendFile(
    reply: FastifyReply,
    row: ImageRow,
    key: string | null | undefined,
    opts: { download?: boolean; output?: boolean; preview?: boolean } = {},
  ) {
    if (row.purgedAt) throw jobs.expired();
    if (!key) throw new AppError('RESULT_NOT_READY');
    let bytes = await storage.get(key);
    let ext = key.slice(key.lastIndexOf('.') + 1);
    let contentType = formatByExtension(ext)?.mime ?? 'application/octet-stream';
    // A guest's result: scaled down to the preview size (the stored result is a PNG).
    if (opts.preview) bytes = await previewPng(bytes, LIMITS.guestPreviewMaxSidePx);
    if (opts.output) {
      const { format = 'png', quality = 90 } = row.parameters as { format?: string; quality?: number };
      ({ bytes, ext, contentType } = await encodeOutput(bytes, format, quality));
    }
    reply.header('Content-Type', contentType);
    // Owner-only and never changing once written: browsers may keep it, shared caches may not. A preview is not
    // kept: the same address gives the full-size file once the job is moved to an account.
    reply.header('Cache-Control', opts.preview ? 'private, no-store' : 'private, max-age=86400, immutable');
    reply.header('X-Content-Type-Options', 'nosniff');
    if (opts.download) {
      const index = row.resultKeys.indexOf(key);
      reply.header(
        'Content-Disposition',
        `attachment; filename="${resultFileName(row.operation, row.id, index, ext)}"`,
      );
    }
    return reply.send(bytes);
  }

  // The inputs a job ran with, so that its page can show them again after a reload (owner-only, as every job file).
  const inputs = [
    { path: 'original', operationId: 'getOriginal', summary: 'The uploaded photo', key: 'originalKey' },
    { path: 'mask', operationId: 'getMask', summary: 'The mask the job ran with', key: 'maskKey' },
    { path: 'original2', operationId: 'getSecondPhoto', summary: 'The second photo (face swap)', key: 'file2Key' },
  ] as const;
  for (const input of inputs) {
    app.get(
      `/api/images/:id/${input.path}`,
      {
        schema: {
          operationId: input.operationId,
          summary: input.summary,
          tags: ['files'],
          params: jobIdParams,
          response: { 200: fileResponse('image/*', input.summary) },
        },
      },
      async (request, reply) => {
        const row = await jobs.getOwned(Number(request.params.id), ownerOf(request));
        // A job without this input has no such file (not 'not yet').
        if (!row.purgedAt && !row[input.key]) throw new AppError('NOT_FOUND');
        return sendFile(reply, row, row[input.key]);
      },
    );
  }

  for (const download of [false, true]) {
    const path = download ? '/api/images/:id/download/:index' : '/api/images/:id/result/:index';
    const summary = download
      ? 'A result as an attachment, in the format the job asked for (PNG by default)'
      : 'A result, in the format the job asked for (PNG by default)';
    app.get(
      path,
      {
        schema: {
          operationId: download ? 'downloadResult' : 'getResult',
          summary,
          tags: ['files'],
          params: resultFileParams,
          response: {
            200: fileResponse(
              IMAGE_FORMATS.map((f) => f.mime),
              summary,
            ),
          },
        },
      },
      async (request, reply) => {
        const row = await jobs.getOwned(Number(request.params.id), ownerOf(request));
        await deps.beforeDownload?.(ownerOf(request), row, download);
        const index = Number(request.params.index);
        // A finished job has all the results it will ever have: an index past them does not exist (not 'not yet').
        if (!row.purgedAt && row.status !== 'pending' && !row.resultKeys[index]) throw new AppError('NOT_FOUND');
        // A guest's job (not yet moved to an account) shows its results as previews; signing in gives the full size.
        return sendFile(reply, row, row.resultKeys[index], { download, output: true, preview: isGuestJob(row) });
      },
    );
  }
}
