import type { FastifyInstance } from 'fastify';
import type { Recommendation, RecommendationService } from '../services/recommendations.js';
import { ownerOf } from '../services/sessions.js';
import { idParams } from './schemas.js';

export interface RecommendationRouteDeps {
  recommendations: RecommendationService;
}

const recommendationSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      operationId: { type: 'string' },
      reason: { type: 'string' },
      confidence: { type: 'number', minimum: 0, maximum: 1 },
    },
    required: ['operationId', 'reason', 'confidence'],
  },
} as const;

/** `GET /api/images/:id/recommendations`: other tools that suit the job's uploaded photo, best first. */
export function recommendationRoutes(app: FastifyInstance, deps: RecommendationRouteDeps) {
  app.get<{ Params: { id: string }; Querystring: { of: 'photo' | 'result' } }>(
    '/api/images/:id/recommendations',
    {
      schema: {
        summary: 'Tools suggested by analysing the uploaded photo (or, with of=result, the first result)',
        tags: ['images'],
        params: idParams,
        querystring: {
          type: 'object',
          properties: { of: { type: 'string', enum: ['photo', 'result'], default: 'photo' } },
        },
        response: { 200: recommendationSchema },
      },
    },
    async (request): Promise<Recommendation[]> =>
      deps.recommendations.forJob(ownerOf(request), Number(request.params.id), request.query.of),
  );
}
