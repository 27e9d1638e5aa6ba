/**
 * AdminService over a mocked repository and job service (vi.fn()): blocking an account suspends it at once and
 * cancels its pending jobs (not one that finished meanwhile), an administrator cannot block themselves, and every
 * action is written to the audit log.
 */
import { AppError } from '@ai-editor/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostBoard } from '../../src/adapters/host-board.js';
import type { EngineRegistry } from '../../src/engines/registry.js';
import type { Logger } from '../../src/logging.js';
import type { AdminRepository } from '../../src/repositories/admin.js';
import { AdminService } from '../../src/services/admin.js';
import type { JobService } from '../../src/services/jobs.js';
import { codeOf } from '../support/refusals.js';

const admin = { uid: 'admin-1', email: 'root@example.com' };

function setUp(blocked: string[] = []) {
  const account = (uid: string) => ({
    uid,
    email: `${uid}@example.com`,
    name: null,
    lastSeenAt: new Date('2026-03-01T00:00:00Z'),
    blockedAt: null,
    jobs: 2,
  });
  const repo = {
    blockedUids: vi.fn(async () => blocked),
    // Only accounts that signed in here have a row to block ('ghost' never did).
    setBlocked: vi.fn(async (uid: string) => uid !== 'ghost'),
    pendingOf: vi.fn(async () => [11, 12]),
    account: vi.fn(async (uid: string) => account(uid)),
    audit: vi.fn(async () => {}),
  };
  const jobs = {
    // Job 12 finished between the listing and the cancel.
    cancel: vi.fn(async (id: number) => {
      if (id === 12) throw new AppError('JOB_FINISHED');
    }),
  };
  const service = new AdminService({
    repo: repo as unknown as AdminRepository,
    jobs: jobs as unknown as JobService,
    registry: {} as EngineRegistry,
    hosts: {} as HostBoard,
    log: { info: vi.fn(), warn: vi.fn() } as unknown as Logger,
  });
  return { service, repo, jobs };
}

describe('AdminService', () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  it('knows the blocked accounts from the start', async () => {
    const { service } = setUp(['u9']);
    close = () => service.close();
    await service.start();
    expect(service.isBlocked('u9')).toBe(true);
    expect(service.isBlocked('u1')).toBe(false);
  });

  it('blocks an account at once and cancels its pending jobs, skipping one that finished; unblocking undoes it', async () => {
    const { service, repo, jobs } = setUp();
    close = () => service.close();
    const result = await service.block(admin, 'u1');
    expect(service.isBlocked('u1')).toBe(true);
    expect(result.cancelledJobs).toEqual([11]);
    expect(result.account).toMatchObject({ uid: 'u1', email: 'u1@example.com' });
    expect(jobs.cancel).toHaveBeenCalledWith(11, 'any', expect.stringContaining('root@example.com'));
    expect(repo.audit).toHaveBeenCalledWith(
      expect.objectContaining({ actorUid: 'admin-1', action: 'block-account', target: 'account:u1' }),
    );
    await service.unblock(admin, 'u1');
    expect(service.isBlocked('u1')).toBe(false);
    expect(repo.setBlocked).toHaveBeenLastCalledWith('u1', null);
    expect(repo.audit).toHaveBeenCalledTimes(2);
  });

  it('refuses to block an account that never signed in here, and writes nothing to the audit', async () => {
    const { service, repo } = setUp();
    close = () => service.close();
    expect(await codeOf(service.block(admin, 'ghost'))).toBe('ACCOUNT_NOT_FOUND');
    expect(service.isBlocked('ghost')).toBe(false);
    expect(repo.audit).not.toHaveBeenCalled();
  });

  it('refuses to let an administrator block their own account', async () => {
    const { service, repo } = setUp();
    close = () => service.close();
    expect(await codeOf(service.block(admin, 'admin-1'))).toBe('BAD_REQUEST');
    expect(service.isBlocked('admin-1')).toBe(false);
    expect(repo.audit).not.toHaveBeenCalled();
  });
});
