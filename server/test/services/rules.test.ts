/**
 * The rules alone (services/rules.ts), over the real UsageService with its repository mocked (vi.fn()): what a guest
 * may submit, how often, how a use is counted once and given back, and who may download.
 */
import { AppError, errorMessage, OPERATIONS } from '@ai-editor/core';
import { describe, expect, it, vi } from 'vitest';
import { memoryRateLimiter } from '../../src/adapters/rate-limiter.js';
import type { ImageRow } from '../../src/db/schema.js';
import type { ImageRepository } from '../../src/repositories/images.js';
import type { UsageRepository } from '../../src/repositories/usage.js';
import { createRules } from '../../src/services/rules.js';
import { UsageService } from '../../src/services/usage.js';

const guestTool = OPERATIONS.find((op) => op.guestAccess)?.id ?? 'face-enhancement';
const memberTool = OPERATIONS.find((op) => !op.guestAccess)?.id ?? 'denoising';

function setUp(opts: { limit?: number; guestsPerAddress?: number } = {}) {
  // The daily counters as the database keeps them: one number per uid, operation and day, never past the limit.
  const counts = new Map<string, number>();
  const usage = {
    increment: vi.fn(async (uid: string, op: string, day: string, limit: number) => {
      const key = `${uid}|${op}|${day}`;
      if ((counts.get(key) ?? 0) >= limit) return false;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return true;
    }),
    decrement: vi.fn(async (uid: string, op: string, day: string) => {
      const key = `${uid}|${op}|${day}`;
      counts.set(key, Math.max(0, (counts.get(key) ?? 0) - 1));
    }),
    recordCharge: vi.fn(async () => {}),
    refund: vi.fn(async () => true),
  };
  const images = { status: vi.fn(async () => 'pending') };
  const service = new UsageService({
    usage: usage as unknown as UsageRepository,
    images: images as unknown as ImageRepository,
    limit: opts.limit ?? 2,
    now: () => new Date('2026-03-01T12:00:00Z'),
  });
  const rules = createRules({
    usage: service,
    guestLimiter: memoryRateLimiter({ max: opts.guestsPerAddress ?? 3, windowMs: 60_000 }),
  });
  const used = (uid: string, op: string) => counts.get(`${uid}|${op}|2026-03-01`) ?? 0;
  return { rules, usage, used };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err) => (err instanceof AppError ? { ...err, code: err.code, message: err.message } : err),
  );

const guest = { sessionId: 'session-a', ip: '10.0.0.1' };
const member = { sessionId: 'session-b', uid: 'u1', ip: '10.0.0.1' };

describe('Rules.check (before the upload is read)', () => {
  it('refuses guests a tool for signed-in users, with the catalogue message, and does not count it', async () => {
    const { rules } = setUp({ guestsPerAddress: 1 });
    const err = await refusal(rules.check(guest, memberTool));
    expect(err).toMatchObject({ code: 'FEATURE_RESTRICTED', message: errorMessage('FEATURE_RESTRICTED') });
    // The refused tool took no hit: the guest tool still passes once.
    await expect(rules.check(guest, guestTool)).resolves.toBeUndefined();
  });

  it('limits guest submissions per address, telling how long to wait; other addresses and users go on', async () => {
    const { rules } = setUp({ guestsPerAddress: 2 });
    await rules.check(guest, guestTool);
    await rules.check({ ...guest, sessionId: 'another-tab' }, guestTool);
    const err = await refusal(rules.check(guest, guestTool));
    expect(err).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect((err as { retryAfter: number }).retryAfter).toBeGreaterThan(0);
    await expect(rules.check({ ...guest, ip: '10.0.0.2' }, guestTool)).resolves.toBeUndefined();
    // A signed-in user from the same address is not held to the guests' limit, and may use every tool.
    await expect(rules.check(member, memberTool)).resolves.toBeUndefined();
  });
});

describe('Rules.admit (once the submission is valid)', () => {
  it('counts one use per admitted submission against the user, until the daily limit', async () => {
    const { rules, used } = setUp({ limit: 2 });
    const first = await rules.admit(member, memberTool);
    await first?.accepted({ id: 1 } as ImageRow);
    expect(used('u1', memberTool)).toBe(1);
    await rules.admit(member, memberTool);
    expect(used('u1', memberTool)).toBe(2);
    const err = await refusal(rules.admit(member, memberTool));
    expect(err).toMatchObject({ code: 'DAILY_LIMIT_REACHED', status: 429 });
    expect(used('u1', memberTool)).toBe(2);
    // Another operation has its own allowance.
    await rules.admit(member, guestTool);
    expect(used('u1', guestTool)).toBe(1);
  });

  it('charges the job an accepted use, and gives a cancelled one back', async () => {
    const { rules, usage, used } = setUp({ limit: 1 });
    const cancelled = await rules.admit(member, memberTool);
    await cancelled?.cancelled();
    expect(used('u1', memberTool)).toBe(0);
    const accepted = await rules.admit(member, memberTool);
    await accepted?.accepted({ id: 42 } as ImageRow);
    expect(usage.recordCharge).toHaveBeenCalledWith(42, 'u1', memberTool, '2026-03-01');
    expect(usage.recordCharge).toHaveBeenCalledTimes(1);
  });

  it("counts a guest's uses per session, apart from any signed-in user's", async () => {
    const { rules, used } = setUp({ limit: 1 });
    await rules.admit(guest, guestTool);
    expect(used('guest:session-a', guestTool)).toBe(1);
    expect(await refusal(rules.admit(guest, guestTool))).toMatchObject({ code: 'DAILY_LIMIT_REACHED' });
    await expect(rules.admit({ sessionId: 'session-a', uid: 'u2' }, guestTool)).resolves.toBeDefined();
  });
});

describe('Rules.beforeDownload', () => {
  const row = { id: 1 } as ImageRow;
  it('lets guests see a result in the page but not download it; signed-in owners may', async () => {
    const { rules } = setUp();
    await expect(rules.beforeDownload(guest, row, false)).resolves.toBeUndefined();
    expect(await refusal(rules.beforeDownload(guest, row, true))).toMatchObject({
      code: 'DOWNLOAD_RESTRICTED',
      message: errorMessage('DOWNLOAD_RESTRICTED'),
    });
    await expect(rules.beforeDownload(member, row, true)).resolves.toBeUndefined();
  });
});
