import { clientConfigSchema, LIMITS } from '@ai-editor/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import { publicAuthConfig } from '../config-auth.js';

/** What the browser needs to know about this deployment, read at run time so one build serves any deployment. */
export function clientConfigRoutes(app: FastifyInstance, config: Config) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/config',
    {
      schema: {
        operationId: 'getConfig',
        summary: 'Settings the web app reads at start',
        tags: ['config'],
        response: { 200: clientConfigSchema },
      },
    },
    async () => ({
      limits: {
        ...LIMITS,
        maxUploadBytes: config.maxUploadBytes,
        maxInputPixels: config.maxInputPixels,
        maxOutputPixels: config.maxOutputPixels,
        dailyUsesPerOperation: config.dailyUsesPerOperation,
        retentionHours: config.retentionHours,
      },
      socialLinks: config.socialLinks,
      ads: config.ads,
      downloadsEnabled: config.downloadsEnabled,
      auth: publicAuthConfig(config.auth),
    }),
  );
}
