import {
  AppError,
  getOperation,
  type OperationId,
  prepareSelectionFormSchema,
  refineMaskFormSchema,
  selectObjectFormSchema,
  submitQuery,
} from '@ai-editor/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { EnginePool } from '../adapters/engine-pool.js';
import { hitOrRefuse, memoryRateLimiter, type RateLimiter } from '../adapters/rate-limiter.js';
import type { JobService } from '../services/jobs.js';
import type { Rules } from '../services/rules.js';
import { fitMaskToObject, parsePrompt, selectObjectMask } from '../services/select-object-api.js';
import { prepareSelection } from '../services/select-prepare.js';
import { ownerOf } from '../services/sessions.js';
import { checkFiles, checkImage, type UploadedFile, type UploadLimits } from '../services/uploads.js';
import { clientGone } from './client-gone.js';
import { fileResponse, streamedBody } from './schemas.js';
import { readSubmission } from './submission.js';
import { submitterOf } from './visitor.js';

export interface SelectObjectRouteDeps {
  jobs: JobService;
  /** This process's engine hosts, where the selection runs; undefined where it runs no engines. */
  pool: EnginePool | undefined;
  limits: UploadLimits;
  /** The access rules of the tool the selection is for (guests cannot use object removal). */
  admission?: Pick<Rules, 'check'>;
  /** Selections per user (or address); a helper step, so it costs no daily use but is bounded. */
  limiter?: RateLimiter;
  /** The engine pool's time limit for one selection (the job limit, JOB_TIMEOUT_MS). */
  timeoutMs: number;
}

/** The form's one photo (`file`): another file, several, or none are refused. */
function onlyPhoto(files: UploadedFile[]): UploadedFile {
  const other = files.find((f) => f.field !== 'file');
  if (other) throw new AppError('UNEXPECTED_FILE', { field: other.field });
  if (files.length > 1) throw new AppError('TOO_MANY_FILES');
  const [photo] = files;
  if (!photo) throw new AppError('FILE_REQUIRED');
  return photo;
}

/**
 * A preparation step beyond the first few waits at most this long for the server to have no job in hand, then runs
 * anyway: one crop (a second or two) then delays a job at most once a minute.
 */
const SPARE_TIME_WAIT_MS = 60_000;

/** Thirty selections a minute: far above clicking by hand, well below keeping the engines busy. */
export const SELECT_RATE_LIMIT = { max: 30, windowMs: 60_000 };

/**
 * The mask editor's helpers, which share one rate limit and the rules of the tool they serve.
 *
 * `POST /api/select-object` (multipart: `file`, `operation` = the mask tool it is for (or `?operation=`), and either `x`,`y` or
 * `x0`,`y0`,`x1`,`y1` in pixels of the upright photo): answers the selection as a PNG mask, white = selected.
 */
export function selectObjectRoutes(app: FastifyInstance, deps: SelectObjectRouteDeps) {
  const limiter = deps.limiter ?? memoryRateLimiter(SELECT_RATE_LIMIT);
  // Who may ask is answered as soon as the operation is known, before the photo is read.
  const admit = async (request: FastifyRequest, name: OperationId) => {
    if (getOperation(name).mask === undefined) {
      throw new AppError('BAD_REQUEST', { reason: `${getOperation(name).name} takes no mask to select into` });
    }
    await deps.admission?.check(submitterOf(request), name);
    await hitOrRefuse(limiter, request.uid ?? request.ip);
    deps.jobs.assertAvailable(name);
  };
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/select-object',
    {
      schema: {
        operationId: 'selectObject',
        summary: 'Select the object at a point or in a box (multipart form); answers a PNG mask',
        description:
          'Fields: file (the photo), operation (object-removal or image-inpainting), and x, y or x0, y0, x1, y1 in ' +
          'pixels of the photo as shown upright. The mask is the photo’s size, white where selected, grown a ' +
          'little so that removal leaves no halo. Uses no daily allowance; rate-limited.',
        tags: ['images'],
        consumes: ['multipart/form-data'],
        querystring: submitQuery,
        body: selectObjectFormSchema,
        response: { 200: fileResponse('image/png', 'The mask: white where selected') },
      },
      validatorCompiler: streamedBody,
    },
    async (request, reply) => {
      const { operation, fields, files } = await readSubmission(request, (name) => admit(request, name));
      const image = await checkImage(onlyPhoto(files).bytes, deps.limits);
      const prompt = parsePrompt(fields, image);
      const owner = ownerOf(request);
      const { png, modelRuns } = await selectObjectMask(deps.pool, operation, image, prompt, {
        timeoutMs: deps.timeoutMs,
        owner: owner.uid ?? owner.sessionId,
        signal: clientGone(reply),
        log: request.log,
      });
      reply.header('Content-Type', 'image/png');
      reply.header('Cache-Control', 'no-store');
      // How many crops the model had to see for this click (0: all from the photo's earlier clicks).
      reply.header('X-Selection-Model-Runs', String(modelRuns));
      return reply.send(png);
    },
  );

  /**
   * `POST /api/select-object/prepare` (multipart: `file`, `operation`): the page sends the photo once when Select
   * object is opened, and the engine host computes what the first click would otherwise wait for. Answers 204 when
   * done (`X-Selection-Prepared-Crops`: the crops kept; `X-Selection-Model-Runs`: those the model had to see). The
   * page drops the request when the photo leaves the editor, and the preparation stops with it.
   */
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/select-object/prepare',
    {
      schema: {
        operationId: 'prepareSelection',
        summary: 'Prepare a photo for Select object before its first click (multipart form)',
        description:
          'Fields: file (the photo) and operation (object-removal or image-inpainting). The server computes and ' +
          'keeps, for a while, what the first selection on this photo needs, so that the clicks answer sooner. ' +
          'Uses no daily allowance; rate-limited together with select-object.',
        tags: ['images'],
        consumes: ['multipart/form-data'],
        querystring: submitQuery,
        body: prepareSelectionFormSchema,
        response: { 204: z.undefined().describe('Prepared') },
      },
      validatorCompiler: streamedBody,
    },
    async (request, reply) => {
      const { operation, files } = await readSubmission(request, (name) => admit(request, name));
      const image = await checkImage(onlyPhoto(files).bytes, deps.limits);
      const owner = ownerOf(request);
      const { crops, modelRuns } = await prepareSelection(deps.pool, operation, image, {
        timeoutMs: deps.timeoutMs,
        owner: owner.uid ?? owner.sessionId,
        signal: clientGone(reply),
        log: request.log,
        spareTime: (signal) => deps.jobs.idle(SPARE_TIME_WAIT_MS, signal),
      });
      reply.header('Cache-Control', 'no-store');
      reply.header('X-Selection-Prepared-Crops', String(crops));
      reply.header('X-Selection-Model-Runs', String(modelRuns));
      return reply.code(204).send();
    },
  );

  /**
   * `POST /api/refine-mask` (multipart: `file`, `mask`, `operation`): the painted mask fitted to the object it
   * covers (Fit mask to object), as a PNG mask the photo's size; it holds every painted pixel.
   */
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/refine-mask',
    {
      schema: {
        operationId: 'refineMask',
        summary: 'Fit a painted mask to the object it covers (multipart form); answers a PNG mask',
        description:
          'Fields: file (the photo), mask (the painted mask, white = painted) and operation (a tool with a mask). ' +
          'The answer is the photo’s size, white where the mask now is: the painted area, grown to the edge of the ' +
          'object the strokes cover and a little past it (its soft edge), never smaller than what was painted. ' +
          'Uses no daily allowance; rate-limited together with select-object.',
        tags: ['images'],
        consumes: ['multipart/form-data'],
        querystring: submitQuery,
        body: refineMaskFormSchema,
        response: { 200: fileResponse('image/png', 'The fitted mask: white where it covers') },
      },
      validatorCompiler: streamedBody,
    },
    async (request, reply) => {
      const { operation, files } = await readSubmission(request, (name) => admit(request, name));
      // The tool's own file checks: exactly a photo and a mask, of the same proportions, the mask not empty.
      const checked = await checkFiles(getOperation(operation), files, deps.limits);
      if (!checked.file) throw new AppError('FILE_REQUIRED');
      if (!checked.mask) throw new AppError('MASK_REQUIRED');
      const owner = ownerOf(request);
      const png = await fitMaskToObject(deps.pool, operation, checked.file, checked.mask.bytes, {
        timeoutMs: deps.timeoutMs,
        owner: owner.uid ?? owner.sessionId,
        signal: clientGone(reply),
        log: request.log,
      });
      reply.header('Content-Type', 'image/png');
      reply.header('Cache-Control', 'no-store');
      return reply.send(png);
    },
  );
}
