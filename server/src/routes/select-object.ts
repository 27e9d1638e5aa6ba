import {
  AppError,
  getOperation,
  type OperationId,
  preparedPhotoSchema,
  prepareSelectionFormSchema,
  refineMaskFormSchema,
  selectObjectFormSchema,
  selectOnPreparedSchema,
  submitQuery,
  usesSelectObject,
} from '@ai-editor/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { EnginePool } from '../adapters/engine-pool.js';
import { hitOrRefuse, memoryRateLimiter, type RateLimiter } from '../adapters/rate-limiter.js';
import type { JobService } from '../services/jobs.js';
import type { PreparedPhotos } from '../services/prepared-photos.js';
import type { Rules } from '../services/rules.js';
import {
  checkSelection,
  fitMaskToObject,
  parsePrompt,
  prepareSelection,
  type SelectionAnswer,
  selectObjectMask,
} from '../services/select-object-api.js';
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
  /** The photos Select object was opened on, which later clicks name by id. */
  prepared: PreparedPhotos;
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
 * A hundred and twenty selections a minute: a click costs a fraction of a second, and refining one object takes a
 * few clicks and steps (smaller, larger, points added and taken away); well below keeping the engines busy.
 */
export const SELECT_RATE_LIMIT = { max: 120, windowMs: 60_000 };

/**
 * The selection's answer: the mask, with its place on the ladder of smaller and larger answers and the part of the
 * photo it covers in headers.
 */
function sendSelection(reply: FastifyReply, answer: SelectionAnswer) {
  reply.header('Content-Type', 'image/png');
  reply.header('Cache-Control', 'no-store');
  reply.header('X-Selection-Level', String(answer.level));
  reply.header('X-Selection-Smaller', String(answer.smaller));
  reply.header('X-Selection-Larger', String(answer.larger));
  reply.header('X-Selection-Box', answer.box.join(','));
  return reply.send(answer.png);
}

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
    if (!usesSelectObject(getOperation(name))) {
      throw new AppError('BAD_REQUEST', { reason: `${getOperation(name).name} does not select objects` });
    }
    await deps.admission?.check(submitterOf(request), name);
    await hitOrRefuse(limiter, request.uid ?? request.ip);
    deps.jobs.assertAvailable(name);
  };
  // What each helper's engine task is told: its time limit, who asks (the pool takes turns between visitors), and
  // when nobody waits for the answer any more.
  const taskOptions = (request: FastifyRequest, reply: FastifyReply) => {
    const owner = ownerOf(request);
    return {
      timeoutMs: deps.timeoutMs,
      owner: owner.uid ?? owner.sessionId,
      signal: clientGone(reply),
      log: request.log,
    };
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
      const request_ = parsePrompt(fields, image);
      const answer = await selectObjectMask(deps.pool, operation, image, request_, taskOptions(request, reply));
      return sendSelection(reply, answer);
    },
  );

  /**
   * `POST /api/select-object/prompt` (JSON: `operation`, `photo` = the id the preparation answered, `points`,
   * `box`, `level`, `crop`): a selection on a prepared photo, coordinates only. SELECT_PHOTO_GONE when this server no
   * longer holds the photo (the page prepares it again).
   */
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/select-object/prompt',
    {
      schema: {
        operationId: 'selectOnPrepared',
        summary: 'Select an object on a prepared photo (JSON): points, a box, a step smaller or larger',
        description:
          'Fields: operation, photo (the id /api/select-object/prepare answered), points (the click first, then ' +
          'points to add, label 1, or take away, label 0), box (x0, y0, x1, y1), level (-1 a smaller answer, 1 a ' +
          'larger one: a part, the object, the group it touches), crop (answer the selection’s box alone). Answers ' +
          'the mask as select-object does, or with crop only the part of it around the selection, with ' +
          'X-Selection-Box (left, top, width, height: the part of the photo the PNG covers), X-Selection-Level, ' +
          'X-Selection-Smaller and X-Selection-Larger (the steps there are below and above).',
        tags: ['images'],
        body: selectOnPreparedSchema,
        response: { 200: fileResponse('image/png', 'The mask: white where selected') },
      },
    },
    async (request, reply) => {
      const { photo } = request.body;
      // The schema admits mask tools only.
      const operation = request.body.operation as OperationId;
      await admit(request, operation);
      const task = taskOptions(request, reply);
      const image = deps.prepared.get(task.owner, photo);
      if (!image) throw new AppError('SELECT_PHOTO_GONE');
      const answer = await selectObjectMask(deps.pool, operation, image, checkSelection(request.body, image), {
        ...task,
        prepared: photo,
        crop: request.body.crop,
      });
      return sendSelection(reply, answer);
    },
  );

  /**
   * `POST /api/select-object/prepare` (multipart: `file`, `operation`): the page sends the photo once when Select
   * object is opened; the engine host computes its embedding (the model's heavy part) and this process keeps the
   * photo. Answers the photo's id, which later clicks name (`/api/select-object/prompt`).
   */
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/select-object/prepare',
    {
      schema: {
        operationId: 'prepareSelection',
        summary: 'Prepare a photo for Select object before its first click (multipart form)',
        description:
          'Fields: file (the photo) and operation (object-removal or image-inpainting). The server computes and ' +
          'keeps, for a while, what selections on this photo need, and answers its id: later selections send ' +
          'coordinates only (select-object/prompt). Uses no daily allowance; rate-limited together with select-object.',
        tags: ['images'],
        consumes: ['multipart/form-data'],
        querystring: submitQuery,
        body: prepareSelectionFormSchema,
        response: { 200: preparedPhotoSchema },
      },
      validatorCompiler: streamedBody,
    },
    async (request, reply) => {
      const { operation, files } = await readSubmission(request, (name) => admit(request, name));
      const image = await checkImage(onlyPhoto(files).bytes, deps.limits);
      const task = taskOptions(request, reply);
      await prepareSelection(deps.pool, operation, image, task);
      reply.header('Cache-Control', 'no-store');
      return { photo: deps.prepared.put(task.owner, image), width: image.width, height: image.height };
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
      const task = taskOptions(request, reply);
      const png = await fitMaskToObject(deps.pool, operation, checked.file, checked.mask.bytes, task);
      reply.header('Content-Type', 'image/png');
      reply.header('Cache-Control', 'no-store');
      return reply.send(png);
    },
  );
}
