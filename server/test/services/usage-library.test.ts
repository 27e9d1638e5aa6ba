/**
 * UsageService and LibraryService over mocked repositories and storage (vi.fn()): the daily count's day and limit,
 * the charge of a job that already failed, and the library's paging, owner-only deletes and file clean-up.
 */
import { AppError } from '@ai-editor/core';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import type { Storage } from '../../src/adapters/storage.js';
import type { ImageRow } from '../../src/db/schema.js';
import type { ImageRepository } from '../../src/repositories/images.js';
import type { UsageRepository } from '../../src/repositories/usage.js';
import { LibraryService, thumbnailKey } from '../../src/services/library.js';
import { UsageService } from '../../src/services/usage.js';
import { codeOf } from '../support/refusals.js';

function usageSetUp(limit: number, jobStatus: 'pending' | 'failed' = 'pending') {
  const usage = {
    increment: vi.fn(async (_uid: string, _op: string, _day: string, _limit: number) => true),
    decrement: vi.fn(async () => {}),
    recordCharge: vi.fn(async () => {}),
    refund: vi.fn(async () => true),
    failedUnrefunded: vi.fn(async () => [4, 5]),
    countsOn: vi.fn(async () => ({ denoising: 1 })),
  };
  const images = { status: vi.fn(async () => jobStatus) };
  // Just before midnight UTC: the day counted is the UTC one, not the server's local date.
  const now = () => new Date('2026-03-01T23:59:30Z');
  const service = new UsageService({
    usage: usage as unknown as UsageRepository,
    images: images as unknown as ImageRepository,
    limit,
    now,
  });
  return { service, usage };
}

describe('UsageService', () => {
  it('counts a use on the UTC day under the limit, and none at all when the limit is 0', async () => {
    const { service, usage } = usageSetUp(2);
    expect(await service.consume('u1', 'denoising')).toBe('2026-03-01');
    expect(usage.increment).toHaveBeenCalledWith('u1', 'denoising', '2026-03-01', 2);
    usage.increment.mockResolvedValueOnce(false);
    expect(await service.consume('u1', 'denoising')).toBeUndefined();
    const off = usageSetUp(0);
    expect(await off.service.consume('u1', 'denoising')).toBeUndefined();
    expect(off.usage.increment).not.toHaveBeenCalled();
  });

  it('gives the use back at once when the job it was charged to has already failed', async () => {
    const running = usageSetUp(2, 'pending');
    await running.service.charge(9, 'u1', 'denoising', '2026-03-01');
    expect(running.usage.recordCharge).toHaveBeenCalledWith(9, 'u1', 'denoising', '2026-03-01');
    expect(running.usage.refund).not.toHaveBeenCalled();
    const failed = usageSetUp(2, 'failed');
    await failed.service.charge(9, 'u1', 'denoising', '2026-03-01');
    expect(failed.usage.refund).toHaveBeenCalledWith(9);
  });

  it('reconciles the failed jobs whose refund was lost, counting those refunded now', async () => {
    const { service, usage } = usageSetUp(2);
    usage.refund.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    expect(await service.reconcile()).toBe(1);
    expect(await service.today('u1')).toEqual({ denoising: 1 });
  });
});

const row = (id: number, extra: Partial<ImageRow> = {}) =>
  ({
    id,
    originalKey: `originals/${id}/file.png`,
    maskKey: null,
    file2Key: null,
    resultKeys: [],
    metadata: {},
    ...extra,
  }) as ImageRow;

function librarySetUp(rows: ImageRow[]) {
  const images = {
    listOwned: vi.fn(async (_owner: unknown, page: { limit: number }) => rows.slice(0, page.limit)),
    deleteOwned: vi.fn(async (_owner: unknown, id?: number) => rows.filter((r) => id === undefined || r.id === id)),
  };
  const storage = {
    delete: vi.fn(async (key: string) => (key.includes('broken') ? Promise.reject(new Error('io')) : undefined)),
  };
  const log = { warn: vi.fn() };
  const service = new LibraryService({
    images: images as unknown as ImageRepository,
    storage: storage as unknown as Storage,
    log: log as unknown as FastifyBaseLogger,
    retentionHours: 24,
  });
  return { service, images, storage, log };
}

describe('LibraryService', () => {
  const owner = { sessionId: 's1' };

  it('pages newest first: asks one more row than the page to know whether another page follows', async () => {
    const { service, images } = librarySetUp([row(9), row(8), row(7)]);
    const first = await service.list(owner, { limit: 2 });
    expect(images.listOwned).toHaveBeenCalledWith(owner, { cursor: undefined, limit: 3 });
    expect([first.items.map((r) => r.id), first.nextCursor]).toEqual([[9, 8], 8]);
    const all = await service.list(owner, { limit: 5 });
    expect(all.nextCursor).toBeNull();
  });

  it('deletes a job with every file it stored (inputs, results, thumbnail); a missing one is NOT_FOUND', async () => {
    const { service, storage, log } = librarySetUp([
      row(3, { maskKey: 'originals/3/mask.png', resultKeys: ['results/3/0.png', 'results/3/broken.png'] }),
    ]);
    await service.remove(owner, 3);
    expect(storage.delete.mock.calls.map((c) => c[0]).sort()).toEqual(
      [
        'originals/3/file.png',
        'originals/3/mask.png',
        'results/3/0.png',
        'results/3/broken.png',
        thumbnailKey(3),
      ].sort(),
    );
    // A file that cannot be deleted is logged, and the rest still go.
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(await codeOf(service.remove(owner, 4))).toBe('NOT_FOUND');
  });

  it('refuses the thumbnail of a job whose files were swept, naming the retention', async () => {
    const { service } = librarySetUp([]);
    const err = await service.thumbnail(row(5, { purgedAt: new Date() })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('RESULT_EXPIRED');
    expect((err as AppError).message).toContain('24');
  });
});
