import { apiErrorSchema, ERROR_CODES, ERRORS } from '@ai-editor/core';
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * `/api/openapi.json`, generated from the routes' zod schemas (core/src/api), plus the error catalogue: every
 * operation answers its errors as `{ code, message }` with the HTTP status of the code.
 */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'AI Editor API',
        version: '1.0.0',
        description: 'Upload a photo, pick an operation, get a PNG back.',
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (document) => withErrors(jsonSchemaTransformObject(document) as Document),
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

type Json = Record<string, unknown>;
interface Document extends Json {
  paths: Record<string, Record<string, { responses?: Json }>>;
  components?: { schemas?: Json; responses?: Json };
}

function withErrors(doc: Document): Document {
  const statuses = [...new Set(ERROR_CODES.map((code) => ERRORS[code].status))].sort((a, b) => a - b);
  const byStatus = statuses.map((s) => `- ${s}: ${ERROR_CODES.filter((c) => ERRORS[c].status === s).join(', ')}`);
  const error = z.toJSONSchema(apiErrorSchema, { target: 'openapi-3.0' }) as unknown as Json & {
    properties: { code: Json };
  };
  delete error.$schema;
  error.properties.code['x-http-status'] = Object.fromEntries(ERROR_CODES.map((c) => [c, ERRORS[c].status]));
  for (const path of Object.values(doc.paths)) {
    for (const operation of Object.values(path)) {
      operation.responses = { ...operation.responses, default: { $ref: '#/components/responses/Error' } };
    }
  }
  return {
    ...doc,
    components: {
      ...doc.components,
      schemas: { ...doc.components?.schemas, Error: error },
      responses: {
        ...doc.components?.responses,
        Error: {
          description: `An error: its code (x-http-status gives each code's status) and the message to show.\n${byStatus.join('\n')}`,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  };
}
