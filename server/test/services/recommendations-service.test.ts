/**
 * RecommendationService with its job service and storage mocked: which picture of a job is analysed, and which of the
 * rules' suggestions are offered. The analysis itself is the real one (sharp, no faces: no engine pool here).
 */
import { AppError, type OperationId } from '@ai-editor/core';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { fixtureBytes } from '../../../test-support/engine-ctx.js';
import type { EnginePool } from '../../src/adapters/engine-pool.js';
import type { Storage } from '../../src/adapters/storage.js';
import type { ImageRow } from '../../src/db/schema.js';
import { analysePhoto } from '../../src/engines/analysis/photo-analysis.js';
import type { JobService } from '../../src/services/jobs.js';
import { RecommendationService, recommendationsFor } from '../../src/services/recommendations.js';
import { codeOf } from '../support/refusals.js';

const owner = { sessionId: 'session-a' };
// Black and white and 512 px: the rules suggest colorization and super-resolution for it.
const photo = fixtureBytes('camera.png');

function setUp(
  job: Partial<ImageRow>,
  unavailable: OperationId[] = [],
  more: {
    pool?: Pick<EnginePool, 'runTask'>;
    get?: (key: string) => Promise<Buffer>;
    idle?: (maxMs: number, signal?: AbortSignal) => Promise<void>;
  } = {},
) {
  const row = { id: 3, status: 'completed', originalKey: 'photo.png', resultKeys: ['result.png'], ...job };
  const jobs = {
    getOwned: vi.fn(async (id: number) => ({ ...row, id })),
    expired: () => new AppError('RESULT_EXPIRED', { hours: 24 }),
    idle: vi.fn(more.idle ?? (async () => {})),
    assertAvailable: vi.fn((op: OperationId) => {
      if (unavailable.includes(op)) throw new AppError('OPERATION_UNAVAILABLE', { name: op, enable: 'x' });
    }),
  };
  const storage = { get: vi.fn(more.get ?? (async () => photo)) };
  const service = new RecommendationService({
    jobs: jobs as unknown as JobService,
    storage: storage as unknown as Storage,
    pool: more.pool as EnginePool | undefined,
    log: { warn: vi.fn() } as unknown as FastifyBaseLogger,
  });
  return { service, storage, jobs };
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

  it('looks for faces in an engine host only where the face tip can be offered (never for a face-enhancement job)', async () => {
    const analysis = { ...(await analysePhoto(photo)), faces: [0.9] };
    const runTask = vi.fn(async () => ({ images: [], metadata: { analysis } }));
    const denoising = setUp({ operation: 'denoising' }, [], { pool: { runTask } as Pick<EnginePool, 'runTask'> });
    expect(ids(await denoising.service.forJob(owner, 3, 'photo'))).toContain('face-enhancement');
    expect(runTask).toHaveBeenCalledTimes(1);
    // Every guest's job is a face enhancement: its analysis costs no engine time, and answers the same.
    const own = setUp({ operation: 'face-enhancement' }, [], { pool: { runTask } as Pick<EnginePool, 'runTask'> });
    const offered = ids(await own.service.forJob(owner, 3, 'photo'));
    expect(runTask).toHaveBeenCalledTimes(1);
    expect(offered).toEqual(
      ids(await denoising.service.forJob(owner, 4, 'photo')).filter((id) => id !== 'face-enhancement'),
    );
  });

  it('runs guests’ analyses one at a time, eight more waiting their turn and the rest refused; a user’s are not held', async () => {
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const { service, storage } = setUp({ operation: 'face-enhancement' }, [], {
      get: async () => {
        await gate;
        return photo;
      },
    });
    // Twelve guests, each asking about a job of their own while the first analysis has not finished.
    const asked = Array.from({ length: 12 }, (_, i) =>
      codeOf(service.forJob({ sessionId: `guest-${i}` }, 10 + i, 'photo')),
    );
    const user = codeOf(service.forJob({ sessionId: 'session-u', uid: 'uid-u' }, 99, 'photo'));
    await vi.waitFor(() => expect(storage.get).toHaveBeenCalledTimes(2));
    await new Promise((r) => setTimeout(r, 50));
    // One guest's analysis and the user's have started; no other guest's has.
    expect(storage.get).toHaveBeenCalledTimes(2);
    open();
    const codes = await Promise.all(asked);
    expect(codes.filter((c) => c === 'resolved')).toHaveLength(9);
    expect(codes.filter((c) => c === 'RATE_LIMITED')).toHaveLength(3);
    expect(await user).toBe('resolved');
  });

  it('holds a guest’s analysis until no job is in hand (jobs.idle); a user’s is not held', async () => {
    let idle = () => {};
    const { service, storage, jobs } = setUp({ operation: 'face-enhancement' }, [], {
      idle: () =>
        new Promise<void>((resolve) => {
          idle = resolve;
        }),
    });
    const guest = codeOf(service.forJob({ sessionId: 'guest-1' }, 10, 'photo'));
    expect(await codeOf(service.forJob({ sessionId: 'session-u', uid: 'uid-u' }, 99, 'photo'))).toBe('resolved');
    expect(storage.get).toHaveBeenCalledTimes(1);
    expect(jobs.idle).toHaveBeenCalledTimes(1);
    idle();
    expect(await guest).toBe('resolved');
    expect(storage.get).toHaveBeenCalledTimes(2);
  });
});
