import { z } from 'zod';
import {
  COLOR_PATTERN,
  OPERATION_IDS,
  OPERATIONS,
  type Operation,
  type ParamDef,
  usesSelectObject,
} from '../operations.js';

/** Job ids are PostgreSQL `integer`s: none is larger than this. */
export const MAX_JOB_ID = 2_147_483_647;
/** The validation message of an id past MAX_JOB_ID: it names no job, so the server answers 404, not 400. */
export const NO_SUCH_JOB = 'names no job';

/** Whether `text` is a job id a row can have (digits, 1 to MAX_JOB_ID). */
export function isJobIdInRange(text: string): boolean {
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= 1 && n <= MAX_JOB_ID;
}

/**
 * A row id as text (a job's, a key's: both `integer` columns): digits; one out of the column's range fails with
 * `notFound`, which the server answers as that row's 404.
 */
export const rowIdText = (notFound: string) =>
  z
    .string()
    .regex(/^[0-9]{1,12}$/)
    .refine((v) => isJobIdInRange(v), notFound);

/** A job id as text (in the address, `cursor`, `source`). */
export const jobIdText = rowIdText(NO_SUCH_JOB);

/** A job id in the address. */
export const jobIdParams = z.object({ id: jobIdText });

/** One of a job's result files. */
export const resultFileParams = jobIdParams.extend({ index: z.string().regex(/^[0-9]{1,2}$/) });

export const jobStatusSchema = z.enum(['pending', 'completed', 'failed']);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** What the server and the engines record about a job's run; engines may add keys of their own. */
export const jobMetadataSchema = z
  .looseObject({
    stage: z.string().optional(),
    /** Where the engine reports one. */
    percent: z.number().nullable().optional(),
    queuePosition: z.number().int().optional(),
    /** The message to show, when failed. */
    error: z.string().optional(),
    /** The error catalogue's code of the failure, where it has one. */
    errorCode: z.string().optional(),
    /** The photo and its results were deleted (retention). */
    expired: z.boolean().optional(),
  })
  .describe(
    'While pending: stage, percent (where known), queuePosition. When failed: error (the message to show) and, where the error catalogue has one, errorCode.',
  );

/** `GET /api/images/:id`: a job and its status, as every endpoint that answers with a job shows it. */
export const imageJobSchema = z.object({
  id: z.number().int(),
  operation: z.string(),
  status: jobStatusSchema,
  originalUrl: z.string().nullable(),
  /** The painted mask the job ran with (object removal, inpainting), while its files are kept. */
  maskUrl: z.string().nullable().describe('The mask the job ran with (tools that take one)'),
  /** The second photo (face swap), while its files are kept. */
  secondPhotoUrl: z.string().nullable().describe('The second photo (face swap)'),
  processedUrl: z.string().nullable(),
  processedUrls: z.array(z.string()),
  downloadUrls: z.array(z.string()),
  parameters: z.record(z.string(), z.unknown()),
  metadata: jobMetadataSchema,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
  /** A chained job: the job whose result was its photo (null once that job is deleted). */
  sourceImageId: z.number().int().nullable().describe("The job whose result was this job's photo"),
  sourceIndex: z.number().int().nullable(),
  /** A guest's job: its results are served as previews (long side at most 1024 px) until its owner signs in. */
  preview: z
    .boolean()
    .optional()
    .describe('Results are previews (long side at most 1024 px) until the owner signs in (guest jobs)'),
});
export type ImageJob = z.infer<typeof imageJobSchema>;

/**
 * `POST /api/images` headers: an optional `Idempotency-Key` (a UUID per submission is best). The same key again
 * within 24 hours answers with the job it made (200) instead of making another; with a different submission, 422.
 */
export const submitHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/, 'visible ASCII characters only')
    .optional()
    .describe(
      'One key per submission (a UUID): a repeat within 24 hours answers with the same job (200, no new use); the same key with a different submission is a 422',
    ),
});

/** `POST /api/images?operation=`: the operation named before the upload, so that guest rules answer first. */
export const submitQuery = z.object({
  operation: z.string().optional().describe('The operation, so that guest rules answer before the upload'),
});

const binary = (description: string) => z.string().meta({ format: 'binary', description });

/** One parameter as a multipart field: its range, step, default and options come from the catalogue. */
function paramField(def: ParamDef) {
  const doc = { description: def.help ? `${def.label}: ${def.help}` : def.label };
  switch (def.kind) {
    case 'text':
      return z.string().max(def.maxLength).default(def.default).meta(doc);
    case 'number': {
      const n = z.number().min(def.min).max(def.max);
      // JSON Schema's multipleOf counts from 0; a step counted from another minimum is said in words.
      return Number.isInteger(def.min / def.step)
        ? n.multipleOf(def.step).default(def.default).meta(doc)
        : n.default(def.default).meta({ description: `${doc.description} (steps of ${def.step} from ${def.min})` });
    }
    case 'boolean':
      return z.boolean().default(def.default).meta(doc);
    case 'select': {
      const options = z.enum(def.options.map((o) => o.value) as [string, ...string[]]);
      if (!def.color) return options.default(def.default).meta(doc);
      return z
        .union([options, z.string().regex(new RegExp(COLOR_PATTERN))])
        .default(def.default)
        .meta(doc);
    }
  }
}

function submitForm(op: Operation) {
  const params = Object.fromEntries(op.params.map((p) => [p.name, paramField(p)]));
  const photo =
    op.input === 'prompt'
      ? {}
      : {
          file: binary('The photo (JPEG, PNG or WebP); not sent with source').optional(),
          source: z.string().optional().describe("A job id: use that job's result as the photo instead"),
          sourceIndex: z.string().optional().describe('Which of its results (0 by default)'),
        };
  return z
    .object({
      operation: z.literal(op.id),
      webhook: z
        .url({ protocol: /^https?$/ })
        .max(2000)
        .optional()
        .describe(
          "With an API key: POSTed the job (Standard Webhooks, signed with the key's webhookSecret) when it completes or fails",
        ),
      ...photo,
      ...(op.mask && { mask: binary('PNG mask, white where to work').optional() }),
      ...(op.input === 'two-photos' && { file2: binary('The second photo') }),
      ...params,
    })
    .meta({ title: op.name });
}

/**
 * `POST /api/images` (multipart): one form per operation of the catalogue. It documents the form; the server reads
 * it as a stream and checks the fields with parseParams (params.ts).
 */
export const submitFormSchema = z.discriminatedUnion(
  'operation',
  OPERATIONS.map(submitForm) as unknown as [ReturnType<typeof submitForm>, ...ReturnType<typeof submitForm>[]],
);

/** `GET /api/images`: a page of my jobs. */
export const libraryQuery = z.object({
  cursor: z
    .string()
    .regex(/^[0-9]{0,12}$/)
    .refine((v) => v === '' || isJobIdInRange(v), NO_SUCH_JOB)
    .optional()
    .describe('nextCursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

export const libraryItemSchema = imageJobSchema.extend({
  thumbnailUrl: z.string().nullable(),
  expiresAt: z.iso.datetime().describe('When the photo and its results are deleted'),
});
export type LibraryItem = z.infer<typeof libraryItemSchema>;

export const libraryPageSchema = z.object({
  items: z.array(libraryItemSchema),
  nextCursor: z.number().int().nullable().describe('Pass as cursor for the next page'),
});
export type LibraryPage = z.infer<typeof libraryPageSchema>;

/** `DELETE /api/images`: how many jobs went. */
export const deletedSchema = z.object({ deleted: z.number().int() });
export type Deleted = z.infer<typeof deletedSchema>;

export const recommendationsQuery = z.object({ of: z.enum(['photo', 'result']).default('photo') });

/** A tool that suits the photo, with why. */
export const recommendationSchema = z.object({
  operationId: z.enum(OPERATION_IDS),
  reason: z.string(),
  confidence: z.number().min(0).max(1),
});
export type Recommendation = z.infer<typeof recommendationSchema>;

/** The tools the mask helpers (select object, fit mask) serve: those that take a mask, and Segmentation. */
const maskTool = () =>
  z.enum(OPERATIONS.filter((op) => usesSelectObject(op)).map((op) => op.id) as [string, ...string[]]);

/** `POST /api/select-object` (multipart): a point or a box on the photo. */
export const selectObjectFormSchema = z.object({
  file: binary('The photo'),
  operation: maskTool().describe('The mask tool the selection is for'),
  x: z.number().optional().describe('A point, in pixels of the photo as shown upright'),
  y: z.number().optional(),
  x0: z.number().optional().describe('Or a box: x0, y0, x1, y1'),
  y0: z.number().optional(),
  x1: z.number().optional(),
  y1: z.number().optional(),
});

/** A point of a selection: label 1 adds what is under it, 0 takes it away. */
const selectionPoint = z.object({
  x: z.number().describe('In pixels of the photo as shown upright'),
  y: z.number(),
  label: z.union([z.literal(0), z.literal(1)]).default(1),
});

/**
 * `POST /api/select-object` (JSON): a selection on a photo prepared before (its `photo` id from
 * `/api/select-object/prepare`): coordinates only, no upload.
 */
export const selectOnPreparedSchema = z.object({
  operation: maskTool().describe('The mask tool the selection is for'),
  photo: z
    .string()
    .regex(/^[0-9a-f]{16,64}$/)
    .describe('The id the preparation answered'),
  points: z
    .array(selectionPoint)
    .max(32)
    .default([])
    .describe('The click first; then points to add (1) or take away (0)'),
  box: z
    .object({ x0: z.number(), y0: z.number(), x1: z.number(), y1: z.number() })
    .optional()
    .describe('Or a box around the object'),
  level: z.number().int().min(-4).max(4).default(0).describe('A step from the object: -1 smaller, 1 larger'),
  crop: z
    .boolean()
    .default(false)
    .describe(
      'Answer the selection’s box alone, placed on the photo by X-Selection-Box, not a mask of the whole photo',
    ),
});
export type SelectOnPrepared = z.infer<typeof selectOnPreparedSchema>;

/** What preparing a photo answers: the id later selections name it by. */
export const preparedPhotoSchema = z.object({
  photo: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type PreparedPhoto = z.infer<typeof preparedPhotoSchema>;

/** `POST /api/select-object/prepare` (multipart): the photo, prepared for Select object before its first click. */
export const prepareSelectionFormSchema = z.object({
  file: binary('The photo'),
  operation: maskTool().describe('The mask tool the selections will be for'),
});

/** `POST /api/refine-mask` (multipart): the photo and the mask painted on it, to be fitted to the object. */
export const refineMaskFormSchema = z.object({
  file: binary('The photo'),
  mask: binary('The painted mask (PNG, white = painted; any size of the photo’s proportions)'),
  operation: maskTool().describe('The mask tool the mask is for'),
});
