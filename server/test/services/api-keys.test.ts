/**
 * ApiKeyService over a mocked repository (vi.fn()): a key is shown once and stored only as its hash, it signs its
 * owner in until revoked, and only its owner can revoke it.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ApiKeyRow } from '../../src/db/schema.js';
import type { ApiKeyRepository } from '../../src/repositories/api-keys.js';
import { API_KEY_PREFIX, ApiKeyService } from '../../src/services/api-keys.js';
import { codeOf } from '../support/refusals.js';

function setUp() {
  const rows: ApiKeyRow[] = [];
  const repo = {
    insert: vi.fn(async (values: Partial<ApiKeyRow>) => {
      const row = { ...values, id: rows.length + 1, createdAt: new Date(), lastUsedAt: null, revokedAt: null };
      rows.push(row as ApiKeyRow);
      return row as ApiKeyRow;
    }),
    // As the repository: live keys only.
    byPrefix: vi.fn(async (prefix: string) => rows.filter((r) => r.prefix === prefix && !r.revokedAt)),
    listFor: vi.fn(async (uid: string) => rows.filter((r) => r.uid === uid && !r.revokedAt).reverse()),
    revoke: vi.fn(async (id: number, uid: string) => {
      const row = rows.find((r) => r.id === id && r.uid === uid && !r.revokedAt);
      if (row) row.revokedAt = new Date();
      return !!row;
    }),
    touch: vi.fn(async (id: number) => {
      const row = rows.find((r) => r.id === id);
      if (row) row.lastUsedAt = new Date();
    }),
  };
  return { service: new ApiKeyService(repo as unknown as ApiKeyRepository), repo, rows };
}

describe('ApiKeyService', () => {
  it('shows a new key once, keeps only its hash, and lists it by its prefix', async () => {
    const { service, rows } = setUp();
    const created = await service.create({ uid: 'u1', email: 'ada@example.com' }, 'laptop');
    expect(created.key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(created.key.length).toBeGreaterThan(40);
    expect(JSON.stringify(rows)).not.toContain(created.key);
    const [listed] = await service.list('u1');
    expect(listed).toMatchObject({ id: created.id, name: 'laptop', lastUsedAt: null });
    expect(created.key.startsWith(listed?.prefix ?? '?')).toBe(true);
    expect(await service.list('u2')).toEqual([]);
  });

  it('signs its owner in, recording the use at most once a minute; a wrong or revoked key is INVALID_API_KEY', async () => {
    const { service, repo } = setUp();
    const created = await service.create({ uid: 'u1', name: 'Ada' }, 'laptop');
    expect(await service.authenticate(created.key)).toMatchObject({ uid: 'u1', name: 'Ada', keyId: created.id });
    await service.authenticate(created.key);
    expect(repo.touch).toHaveBeenCalledTimes(1);
    // Same prefix, other secret.
    expect(await codeOf(service.authenticate(`${created.key.slice(0, -2)}xx`))).toBe('INVALID_API_KEY');
    expect(await codeOf(service.revoke('u2', created.id))).toBe('API_KEY_NOT_FOUND');
    await service.revoke('u1', created.id);
    expect(await codeOf(service.authenticate(created.key))).toBe('INVALID_API_KEY');
    expect(await codeOf(service.revoke('u1', created.id))).toBe('API_KEY_NOT_FOUND');
  });
});
