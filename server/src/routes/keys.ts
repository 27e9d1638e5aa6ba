import {
  AppError,
  apiKeyListSchema,
  createdKeySchema,
  createKeyBody,
  jobIdParams,
  keyIdParams,
  webhookDeliveryListSchema,
} from '@ai-editor/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiKeyService } from '../services/api-keys.js';
import type { JobService } from '../services/jobs.js';
import { ownerOf } from '../services/sessions.js';
import type { WebhookService } from '../services/webhooks.js';
import { fieldErrors } from './schemas.js';

export interface KeyRouteDeps {
  apiKeys: ApiKeyService;
  jobs: JobService;
  webhooks: WebhookService;
}

/** Keys are managed by the signed-in person themselves (session cookie or ID token), never by another key. */
function keyManager(request: FastifyRequest) {
  if (!request.authUser) throw new AppError('FEATURE_RESTRICTED');
  if (request.apiKeyId !== undefined) throw new AppError('API_KEY_FORBIDDEN');
  return request.authUser;
}

/** Personal API keys (`/api/keys`) and the webhook deliveries of a job. */
export function keyRoutes(fastify: FastifyInstance, deps: KeyRouteDeps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['keys'];

  app.post(
    '/api/keys',
    {
      schema: {
        operationId: 'createKey',
        summary: 'Create an API key (the key and its webhook secret are shown this once)',
        tags,
        body: createKeyBody,
        response: { 201: createdKeySchema },
      },
      validatorCompiler: fieldErrors,
    },
    async (request, reply) => {
      const created = await deps.apiKeys.create(keyManager(request), request.body.name);
      reply.code(201);
      return created;
    },
  );

  app.get(
    '/api/keys',
    {
      schema: {
        operationId: 'listKeys',
        summary: 'My API keys (never their secrets)',
        tags,
        response: { 200: apiKeyListSchema },
      },
    },
    async (request) => ({ keys: await deps.apiKeys.list(keyManager(request).uid) }),
  );

  app.delete(
    '/api/keys/:id',
    {
      schema: {
        operationId: 'revokeKey',
        summary: 'Revoke an API key: it stops working at once',
        tags,
        params: keyIdParams,
        response: { 204: z.undefined().describe('Revoked') },
      },
    },
    async (request, reply) => {
      await deps.apiKeys.revoke(keyManager(request).uid, Number(request.params.id));
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/images/:id/webhooks',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: "A job's webhook messages and how their delivery went",
        tags: ['images'],
        params: jobIdParams,
        response: { 200: webhookDeliveryListSchema },
      },
    },
    async (request) => {
      const row = await deps.jobs.getOwned(Number(request.params.id), ownerOf(request));
      return { deliveries: await deps.webhooks.list(row.id) };
    },
  );
}
