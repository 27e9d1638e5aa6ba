import { AppError, getOperation, type OperationId } from '@ai-editor/core';
import type { FastifyInstance } from 'fastify';
import type { Storage } from '../adapters/storage.js';
import type { JobService } from '../services/jobs.js';
import { type Recommendation, recommendationsFor } from '../services/recommendations.js';
import { ownerOf } from '../services/sessions.js';
import { idParams } from './schemas.js';

export interface RecommendationRouteDeps {
  jobs: JobService;
  storage: Storage;
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

/** A tool worth suggesting is one a visitor can open and run here, other than the one just used. */
function offered(operationId: OperationId, current: string, jobs: JobService): boolean {
  if (operationId === current || getOperation(operationId).status !== 'working') return false;
  try {
    jobs.assertAvailable(operationId);
    return true;
  } catch {
    return false;
  }
}

/** `GET /api/images/:id/recommendations`: other tools that suit the job's uploaded photo, best first. */
export function recommendationRoutes(app: FastifyInstance, deps: RecommendationRouteDeps) {
  app.get<{ Params: { id: string } }>(
    '/api/images/:id/recommendations',
    {
      schema: {
        summary: 'Tools suggested by analysing the uploaded photo',
        tags: ['images'],
        params: idParams,
        response: { 200: recommendationSchema },
      },
    },
    async (request): Promise<Recommendation[]> => {
      const row = await deps.jobs.getOwned(Number(request.params.id), ownerOf(request));
      if (row.purgedAt) throw new AppError('RESULT_EXPIRED');
      // Prompt-only jobs have no photo to analyse.
      if (!row.originalKey) return [];
      const all = await recommendationsFor(await deps.storage.get(row.originalKey));
      return all.filter((r) => offered(r.operationId, row.operation, deps.jobs));
    },
  );
}
