import { AppError } from '@ai-editor/core';
import type { Logger } from '../logging.js';
import type { AdminRepository } from '../repositories/admin.js';
import type { AdminService } from './admin.js';
import type { VerifiedUser } from './auth/verifier.js';

/** A signed-in account is recorded (for the admin page's Accounts) at most this often per process. */
const SEEN_EVERY_MS = 10 * 60_000;

export interface AccountGuardDeps {
  admin: Pick<AdminService, 'isBlocked'>;
  repo: Pick<AdminRepository, 'seen'>;
  now?: () => number;
}

/**
 * A blocked account's API requests are refused with 403 ACCOUNT_SUSPENDED (signing out, and reading its own state
 * to show it, still work), and every signed-in account is recorded with its email.
 */
export class AccountGuard {
  private readonly seenAt = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly deps: AccountGuardDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** `exempt`: a request a blocked account may still make (sign-out, `GET /api/me`). */
  async check(user: VerifiedUser | undefined, request: { exempt: boolean; log: Logger }): Promise<void> {
    if (!user) return;
    if (this.suspended(user) && !request.exempt) throw new AppError('ACCOUNT_SUSPENDED');
    const now = this.now();
    if (now - (this.seenAt.get(user.uid) ?? 0) < SEEN_EVERY_MS) return;
    this.seenAt.set(user.uid, now);
    if (this.seenAt.size > 10_000) this.seenAt.clear();
    await this.deps.repo.seen(user).catch((err) => request.log.warn({ err }, 'could not record the account'));
  }

  suspended(user: VerifiedUser | undefined): boolean {
    return user !== undefined && this.deps.admin.isBlocked(user.uid);
  }
}
