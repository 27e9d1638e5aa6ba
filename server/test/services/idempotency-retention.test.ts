/**
 * IdempotencyService and RetentionService over mocked repositories and storage (vi.fn()): a repeated submission
 * makes one job, a reused key with another submission is refused; retention deletes every stored file of an expired
 * job and leaves the results a running job may still be writing.
 */
import { AppError, errorMessage } from '@ai-editor/core';
import { describe, expect, it, vi } from 'vitest';
import type { Storage } from '../../src/adapters/storage.js';
import type { ImageRow } from '../../src/db/schema.js';
import type { IdempotencyKeyRepository } from '../../src/repositories/idempotency-keys.js';
import type { ImageRepository } from '../../src/repositories/images.js';
import { fingerprint, IdempotencyService } from '../../src/services/idempotency.js';
import { thumbnailKey } from '../../src/services/library.js';
import { RetentionService } from '../../src/services/retention.js';

/** The keys table as the claim statement treats it: the first claim of an owner's key wins. */
function keyTable() {
  const rows = new Map<string, { fingerprint: string; imageId: number | null }>();
  return {
    rows,
    claim: vi.fn(async (who: string, key: string, print: string) => {
      const existing = rows.get(`${who}|${key}`);
      if (existing) return { won: false, ...existing };
      rows.set(`${who}|${key}`, { fingerprint: print, imageId: null });
      return { won: true, fingerprint: print, imageId: null };
    }),
    attach: vi.fn(async (who: string, key: string, imageId: number) => {
      const row = rows.get(`${who}|${key}`);
      if (row) row.imageId = imageId;
    }),
    release: vi.fn(async (who: string, key: string) => {
      rows.delete(`${who}|${key}`);
    }),
    deleteBefore: vi.fn(async () => 3),
  };
}

const owner = { sessionId: 's1', uid: 'u1' };
const submission = (strength: string) => ({
  operation: 'denoising' as const,
  fields: { strength },
  files: [{ field: 'file', bytes: Buffer.from('photo') }],
});

describe('IdempotencyService', () => {
  it('makes one job for a repeated submission and answers the repeat with it', async () => {
    const keys = keyTable();
    const service = new IdempotencyService({ keys: keys as unknown as IdempotencyKeyRepository });
    const create = vi.fn(async () => 7);
    const print = fingerprint(submission('0.5'));
    expect(await service.once(owner, 'k1', print, create)).toEqual({ imageId: 7, replayed: false });
    expect(await service.once(owner, 'k1', print, create)).toEqual({ imageId: 7, replayed: true });
    expect(create).toHaveBeenCalledTimes(1);
    // Another visitor's identical key is theirs alone.
    expect(await service.once({ sessionId: 's2' }, 'k1', print, async () => 8)).toEqual({
      imageId: 8,
      replayed: false,
    });
  });

  it('refuses the key with another submission, with the catalogue message', async () => {
    const keys = keyTable();
    const service = new IdempotencyService({ keys: keys as unknown as IdempotencyKeyRepository });
    await service.once(owner, 'k1', fingerprint(submission('0.5')), async () => 7);
    const err = await service.once(owner, 'k1', fingerprint(submission('0.9')), async () => 8).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', message: errorMessage('IDEMPOTENCY_KEY_REUSED') });
  });

  it('frees the key when the job could not be made, so that a retry can make it', async () => {
    const keys = keyTable();
    const service = new IdempotencyService({ keys: keys as unknown as IdempotencyKeyRepository });
    const print = fingerprint(submission('0.5'));
    await expect(
      service.once(owner, 'k1', print, async () => {
        throw new AppError('FILE_TOO_LARGE');
      }),
    ).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(await service.once(owner, 'k1', print, async () => 9)).toEqual({ imageId: 9, replayed: false });
  });

  it('answers IDEMPOTENCY_KEY_IN_USE when the first request holds the key past the wait', async () => {
    const keys = keyTable();
    const service = new IdempotencyService({ keys: keys as unknown as IdempotencyKeyRepository, waitMs: 60 });
    const print = fingerprint(submission('0.5'));
    keys.rows.set('uid:u1|k1', { fingerprint: print, imageId: null });
    const err = await service.once(owner, 'k1', print, async () => 9).catch((e) => e);
    expect(err).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
  });

  it('tells the same submission from another whatever the order of its fields and files', () => {
    const a = { operation: 'denoising' as const, fields: { a: '1', b: '2' }, files: [] };
    const b = { operation: 'denoising' as const, fields: { b: '2', a: '1' }, files: [] };
    expect(fingerprint(a)).toBe(fingerprint(b));
    expect(fingerprint(submission('0.5'))).not.toBe(fingerprint(submission('0.6')));
  });
});

function row(patch: Partial<ImageRow>): ImageRow {
  return {
    id: 1,
    status: 'completed',
    originalKey: 'originals/a/file.png',
    maskKey: null,
    file2Key: null,
    resultKeys: [],
    purgedAt: null,
    ...patch,
  } as ImageRow;
}

describe('RetentionService', () => {
  it("deletes an expired job's every file in batches, keeps the row marked, and sweeps the keys", async () => {
    const expired = Array.from({ length: 100 }, (_, i) => row({ id: i + 1, resultKeys: [`results/${i + 1}/0.png`] }));
    const images = {
      claimExpired: vi
        .fn()
        .mockResolvedValueOnce(expired)
        .mockResolvedValueOnce([row({ id: 500, maskKey: 'm.png' })]),
      deletePurgedBefore: vi.fn(async () => 4),
    };
    const storage = { delete: vi.fn(async (_key: string) => {}) };
    const retention = new RetentionService({
      images: images as unknown as ImageRepository,
      storage: storage as unknown as Storage,
      retentionHours: 24,
      idempotency: { sweep: async () => 3 },
    });
    const now = new Date('2026-03-10T00:00:00Z');
    expect(await retention.sweep(now)).toEqual({ purged: 101, deleted: 4, keys: 3 });
    expect(images.claimExpired).toHaveBeenCalledWith(new Date('2026-03-09T00:00:00Z'), now, 100);
    // Rows stay seven times the file retention.
    expect(images.deletePurgedBefore).toHaveBeenCalledWith(new Date('2026-03-03T00:00:00Z'));
    const deleted = storage.delete.mock.calls.map(([key]) => key);
    expect(deleted).toEqual(expect.arrayContaining(['results/1/0.png', thumbnailKey(1), 'm.png', thumbnailKey(500)]));
  });

  it("removes results no finished row names, and keeps a running job's", async () => {
    const storage = {
      listKeys: vi.fn(async () => ['results/1/0.png', 'results/1/1.png', 'results/2/0.png', 'results/3/0.png']),
      delete: vi.fn(async (_key: string) => {}),
    };
    const images = {
      resultsOf: vi.fn(async () => [
        row({ id: 1, status: 'completed', resultKeys: ['results/1/0.png'] }),
        row({ id: 2, status: 'pending' }),
      ]),
    };
    const retention = new RetentionService({
      images: images as unknown as ImageRepository,
      storage: storage as unknown as Storage,
      retentionHours: 24,
    });
    expect(await retention.sweepOrphanResults()).toBe(2);
    expect(storage.delete.mock.calls.map(([key]) => key).sort()).toEqual(['results/1/1.png', 'results/3/0.png']);
  });
});
