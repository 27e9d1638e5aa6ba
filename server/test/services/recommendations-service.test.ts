/**
 * RecommendationService with its job service and storage mocked: which picture of a job is analysed, and which of the
 * rules' suggestions are offered. The analysis itself is the real one (sharp, no faces: no engine pool here).
 */
import { AppError, type OperationId } from '@ai-editor/core';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import type { Storage } from '../../src/adapters/storage.js';
import type { ImageRow } from '../../src/db/schema.js';
import type { JobService } from '../../src/services/jobs.js';
import { RecommendationService, recommendationsFor } from '../../src/services/recommendations.js';
import { fixtureBytes } from '../support/engine-ctx.js';
import { codeOf } from '../support/refusals.js';

const owner = { sessionId: 'session-a' };
// Black and white and 512 px: the rules suggest colorization and super-resolution for it.
const photo = fixtureBytes('camera.png');

function setUp(job: Partial<ImageRow>, unavailable: OperationId[] = []) {
  const row = { id: 3, status: 'completed', originalKey: 'photo.png', resultKeys: ['result.png'], ...job };
  const jobs = {
    getOwned: vi.fn(async () => row),
    expired: () => new AppError('RESULT_EXPIRED', { hours: 24 }),
    assertAvailable: vi.fn((op: OperationId) => {
      if (unavailable.includes(op)) throw new AppError('OPERATION_UNAVAILABLE', { name: op, enable: 'x' });
    }),
  };
  const storage = { get: vi.fn(async () => photo) };
  const service = new RecommendationService({
    jobs: jobs as unknown as JobService,
    storage: storage as unknown as Storage,
    pool: undefined,
    log: { warn: vi.fn() } as unknown as FastifyBaseLogger,
  });
  return { service, storage };
}

const ids = (recs: { operationId: string }[]) => recs.map((r) => r.operationId);
describe('RecommendationService.forJob', () => {
  it("leaves out the job's own tool and the tools that cannot run here, keeping the rest in order", async () => {
    const all = ids(await recommendationsFor(photo));
    expect(all).toEqual(expect.arrayContaining(['colorization', 'super-resolution']));
    const { service } = setUp({ operation: 'super-resolution' }, ['colorization']);
    const offered = ids(await service.forJob(owner, 3, 'photo'));
    expect(offered).toEqual(all.filter((id) => id !== 'super-resolution' && id !== 'colorization'));
  });

  it('analyses the uploaded photo, or with of=result the first result once the job has completed', async () => {
    const done = setUp({ operation: 'denoising' });
    await done.service.forJob(owner, 3, 'result');
    expect(done.storage.get).toHaveBeenLastCalledWith('result.png');
    await done.service.forJob(owner, 3, 'photo');
    expect(done.storage.get).toHaveBeenLastCalledWith('photo.png');

    const running = setUp({ operation: 'denoising', status: 'pending', resultKeys: [] });
    expect(await codeOf(running.service.forJob(owner, 3, 'result'))).toBe('RESULT_NOT_READY');
  });

  it('answers RESULT_EXPIRED once the files are swept, and nothing for a job without a photo', async () => {
    const swept = setUp({ operation: 'denoising', purgedAt: new Date() });
    expect(await codeOf(swept.service.forJob(owner, 3, 'photo'))).toBe('RESULT_EXPIRED');
    const prompt = setUp({ operation: 'text2img', originalKey: null });
    expect(await prompt.service.forJob(owner, 3, 'photo')).toEqual([]);
    expect(prompt.storage.get).not.toHaveBeenCalled();
  });
});
