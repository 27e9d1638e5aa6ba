import { z } from 'zod';
import { ERRORS, type ErrorCode } from '../errors.js';

export const ERROR_CODES = Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]];

/** The body of every API error; its HTTP status is the code's in the catalogue (errors.ts). */
export const apiErrorSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  /** On faults of ours (500 INTERNAL): the request's id, as in the `x-request-id` header and the server's log. */
  requestId: z.string().optional(),
});

export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
