import { jobIdParams, type Recommendation, recommendationSchema, recommendationsQuery } from '@ai-editor/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RecommendationService } from '../services/recommendations.js';
import { ownerOf } from '../services/sessions.js';

export interface RecommendationRouteDeps {
  recommendations: RecommendationService;
}

/** `GET /api/images/:id/recommendations`: other tools that suit the job's uploaded photo, best first. */
export function recommendationRoutes(app: FastifyInstance, deps: RecommendationRouteDeps) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/images/:id/recommendations',
    {
      schema: {
        operationId: 'getRecommendations',
        summary: 'Tools suggested by analysing the uploaded photo (or, with of=result, the first result)',
        tags: ['images'],
        params: jobIdParams,
        querystring: recommendationsQuery,
        response: { 200: z.array(recommendationSchema) },
      },
    },
    async (request, reply): Promise<Recommendation[]> => {
      // The client has gone (closed the page, aborted the fetch): its analysis is dropped if it still waits.
      const gone = new AbortController();
      reply.raw.once('close', () => reply.raw.writableFinished || gone.abort());
      return deps.recommendations.forJob(ownerOf(request), Number(request.params.id), request.query.of, {
        address: request.ip,
        signal: gone.signal,
      });
    },
  );
}
