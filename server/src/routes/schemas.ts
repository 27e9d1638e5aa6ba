import { AppError } from '@ai-editor/core';
import type { FastifyRouteSchemaDef, FastifyValidationResult } from 'fastify/types/schema.js';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * For multipart routes: the form is read as a stream and checked by the route (uploads.ts, parseParams), so its
 * body schema documents the form and validates nothing; the other parts are validated as everywhere.
 */
export function streamedBody(route: FastifyRouteSchemaDef<unknown>): FastifyValidationResult {
  return route.httpPart === 'body' ? () => ({ value: undefined }) : validatorCompiler(zodRoute(route));
}

/** Validates a JSON body and refuses with INVALID_PARAMETER naming the first bad field, as forms show it. */
export function fieldErrors(route: FastifyRouteSchemaDef<unknown>): FastifyValidationResult {
  if (route.httpPart !== 'body') return validatorCompiler(zodRoute(route));
  const schema = zodRoute(route).schema;
  return (data) => {
    const parsed = schema.safeParse(data ?? {});
    if (parsed.success) return { value: parsed.data };
    const issue = parsed.error.issues[0];
    return {
      error: new AppError('INVALID_PARAMETER', {
        field: String(issue?.path[0] ?? 'body'),
        reason: issue?.message ?? 'invalid',
      }),
    };
  };
}

const zodRoute = (route: FastifyRouteSchemaDef<unknown>) => route as FastifyRouteSchemaDef<z.ZodType>;

/** A response that is a file, not JSON. */
export function fileResponse(contentTypes: string | string[], description: string) {
  const schema = { schema: z.any().meta({ type: 'string', format: 'binary' }) };
  return { description, content: Object.fromEntries([contentTypes].flat().map((type) => [type, schema])) };
}
