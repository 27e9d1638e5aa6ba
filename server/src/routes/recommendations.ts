import {
  AppError,
  getOperation,
  jobIdParams,
  type OperationId,
  recommendationSchema,
  recommendationsQuery,
} from '@ai-editor/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Storage } from '../adapters/storage.js';
import type { JobService } from '../services/jobs.js';
import { analysePhoto, type PhotoAnalysis, type Recommendation, recommend } from '../services/recommendations.js';
import { ownerOf } from '../services/sessions.js';

export interface RecommendationRouteDeps {
  jobs: JobService;
  storage: Storage;
}

const ANALYSIS_MODULE = new URL('../services/photo-analysis.engine.ts', import.meta.url).href;
/** How long the analysis may wait for a worker thread (behind a running job) before we answer without faces. */
const ANALYSIS_TIMEOUT_MS = 60_000;

/**
 * Measures the photo in a worker thread with face detection when this process runs engines; otherwise (or if that
 * fails) here, without faces: sharp does its work off the event loop, and the rest is a few milliseconds.
 */
async function analyse(
  bytes: Buffer,
  operation: OperationId,
  jobs: JobService,
  log: FastifyBaseLogger,
): Promise<PhotoAnalysis> {
  if (jobs.pool) {
    try {
      const out = await jobs.pool.run(
        ANALYSIS_MODULE,
        { operation, image: bytes, params: {} },
        { onProgress: () => {}, timeoutMs: ANALYSIS_TIMEOUT_MS },
      );
      return out.metadata?.analysis as PhotoAnalysis;
    } catch (err) {
      log.warn({ err }, 'photo analysis with faces failed; answering without faces');
    }
  }
  return analysePhoto(bytes);
}

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
    async (request): Promise<Recommendation[]> => {
      const row = await deps.jobs.getOwned(Number(request.params.id), ownerOf(request));
      if (row.purgedAt) throw new AppError('RESULT_EXPIRED');
      // The multi-step editor asks what suits the result, to pick its next step.
      const key = request.query.of === 'result' ? row.resultKeys[0] : row.originalKey;
      if (request.query.of === 'result' && row.status !== 'completed') throw new AppError('RESULT_NOT_READY');
      // Prompt-only jobs have no photo to analyse.
      if (!key) return [];
      const analysis = await analyse(await deps.storage.get(key), row.operation as OperationId, deps.jobs, request.log);
      const all = recommend(analysis);
      return all.filter((r) => offered(r.operationId, row.operation, deps.jobs));
    },
  );
}
