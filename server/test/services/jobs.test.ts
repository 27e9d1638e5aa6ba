/**
 * JobService alone, with its repository, queue and storage mocked: what cancel and submit do to the row, the queue
 * and the "failed" event (which gives a signed-in visitor's use back).
 */
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import type { JobQueue } from '../../src/adapters/queue.js';
import type { Storage } from '../../src/adapters/storage.js';
import type { Config } from '../../src/config.js';
import type { ImageRow } from '../../src/db/schema.js';
import type { EngineRegistry } from '../../src/engines/registry.js';
import type { ImageRepository } from '../../src/repositories/images.js';
import { JobService } from '../../src/services/jobs.js';
import type { CheckedFiles } from '../../src/services/uploads.js';
import { imageRow } from '../support/image-row.js';
import { codeOf } from '../support/refusals.js';

const owner = { sessionId: 'session-a' };
const row = (patch: Partial<ImageRow> = {}) => imageRow({ id: 7, ownerSession: owner.sessionId, ...patch });

function setUp(stored: ImageRow) {
  const images = {
    find: vi.fn(async (id: number) => (id === stored.id ? stored : undefined)),
    insert: vi.fn(async (values: Partial<ImageRow>) => row({ ...values, id: 8 })),
    // Only a pending row can be failed, as in the database.
    fail: vi.fn(async (_id: number, metadata: Record<string, unknown>) =>
      stored.status === 'pending' ? row({ ...stored, status: 'failed', metadata }) : undefined,
    ),
  };
  const queue = { enqueue: vi.fn(async () => {}), remove: vi.fn(async () => {}) };
  const storage = { put: vi.fn(async () => {}), delete: vi.fn(async () => {}) };
  const registry = { binding: () => ({ kind: 'local', operation: 'denoising', module: 'denoising.ts' }) };
  const jobs = new JobService({
    images: images as unknown as ImageRepository,
    queue: queue as unknown as JobQueue,
    storage: storage as unknown as Storage,
    registry: registry as unknown as EngineRegistry,
    config: { jobTimeoutMs: 60_000 } as Config,
    log: { error: vi.fn(), warn: vi.fn() } as unknown as FastifyBaseLogger,
  });
  const failed = vi.fn();
  jobs.events.on('failed', failed);
  return { jobs, images, queue, storage, failed };
}

describe('JobService.cancel', () => {
  it('refuses a finished job with JOB_FINISHED and gives no use back', async () => {
    for (const status of ['completed', 'failed'] as const) {
      const { jobs, queue, failed } = setUp(row({ status }));
      expect(await codeOf(jobs.cancel(7, owner))).toBe('JOB_FINISHED');
      expect(failed).not.toHaveBeenCalled();
      expect(queue.remove).not.toHaveBeenCalled();
    }
  });

  it('refuses a job that finished between the read and the update, with no use given back', async () => {
    const { jobs, images, failed } = setUp(row());
    images.fail.mockResolvedValueOnce(undefined);
    expect(await codeOf(jobs.cancel(7, owner))).toBe('JOB_FINISHED');
    expect(failed).not.toHaveBeenCalled();
  });

  it('marks a pending job failed as Cancelled, takes it out of the queue and gives the use back', async () => {
    const { jobs, images, queue, failed } = setUp(row());
    const cancelled = await jobs.cancel(7, owner);
    expect(cancelled.status).toBe('failed');
    expect(images.fail).toHaveBeenCalledWith(
      7,
      expect.objectContaining({ errorCode: 'CANCELLED', error: 'Cancelled' }),
    );
    expect(queue.remove).toHaveBeenCalledWith(7);
    expect(failed).toHaveBeenCalledTimes(1);
    expect(failed.mock.calls[0]?.[0]).toMatchObject({ id: 7, status: 'failed' });
  });

  it('answers another visitor as for a job that does not exist', async () => {
    const { jobs, images } = setUp(row());
    expect(await codeOf(jobs.cancel(7, { sessionId: 'session-b' }))).toBe('NOT_FOUND');
    expect(await codeOf(jobs.cancel(99, owner))).toBe('NOT_FOUND');
    expect(images.fail).not.toHaveBeenCalled();
  });
});

describe('JobService.submit', () => {
  const files: CheckedFiles = {
    file: { bytes: Buffer.from('png'), mime: 'image/png', ext: 'png', width: 1, height: 1 },
  };

  it('stores the photo, writes the row and enqueues the job', async () => {
    const { jobs, images, queue, storage } = setUp(row());
    const submitted = await jobs.submit(owner, 'denoising', {}, files);
    const [key] = storage.put.mock.calls[0] as unknown as [string];
    expect(key).toMatch(/^originals\/.+\/file\.png$/);
    expect(images.insert).toHaveBeenCalledWith(expect.objectContaining({ operation: 'denoising', originalKey: key }));
    expect(queue.enqueue).toHaveBeenCalledWith(submitted.id, expect.objectContaining({ operation: 'denoising' }));
  });

  it('removes the stored photo again when the row cannot be written, and enqueues nothing', async () => {
    const { jobs, images, queue, storage } = setUp(row());
    images.insert.mockRejectedValueOnce(new Error('database down'));
    await expect(jobs.submit(owner, 'denoising', {}, files)).rejects.toThrow('database down');
    const [key] = storage.put.mock.calls[0] as unknown as [string];
    expect(storage.delete).toHaveBeenCalledWith(key);
    expect(queue.enqueue).not.toHaveBeenCalled();
  });
});
