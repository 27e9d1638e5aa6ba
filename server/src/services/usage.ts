import { nextUtcMidnight, utcDay } from '@ai-editor/core';
import type { ImageRepository, Owner } from '../repositories/images.js';
import type { UsageRepository } from '../repositories/usage.js';

export interface UsageDeps {
  usage: UsageRepository;
  images: ImageRepository;
  /** Uses per signed-in user per operation per UTC day. */
  limit: number;
  now?: () => Date;
}

/** Whose allowance a use counts against: a signed-in user's uid, or a guest's session (uids hold no colon). */
export const usageKey = (owner: Owner): string => owner.uid ?? `guest:${owner.sessionId}`;

/**
 * The daily count: one row per uid, operation and UTC day. A use is counted by one statement that
 * only increments below the limit, so concurrent submissions can never pass it; a failed job gives its use back
 * once, guarded by the refund marker on its charge.
 */
export class UsageService {
  private readonly now: () => Date;

  constructor(private readonly deps: UsageDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  get limit(): number {
    return this.deps.limit;
  }

  /** Counts one use if the user is under today's limit; returns the day it counted on, or undefined if not. */
  async consume(uid: string, operation: string): Promise<string | undefined> {
    if (this.deps.limit <= 0) return undefined;
    const day = utcDay(this.now());
    return (await this.deps.usage.increment(uid, operation, day, this.deps.limit)) ? day : undefined;
  }

  /** Takes back a use that was counted for a submission that then never became a job. */
  async release(uid: string, operation: string, day: string): Promise<void> {
    await this.deps.usage.decrement(uid, operation, day);
  }

  /**
   * Records which counter job `imageId` was charged to. If the job already failed (it can, before this runs),
   * the use goes back at once; `refund` is idempotent, so a concurrent refund from the failure event is harmless.
   */
  async charge(imageId: number, uid: string, operation: string, day: string): Promise<void> {
    await this.deps.usage.recordCharge(imageId, uid, operation, day);
    if ((await this.deps.images.status(imageId)) === 'failed') await this.refund(imageId);
  }

  /** Gives a failed job's use back, exactly once. */
  refund(imageId: number): Promise<boolean> {
    return this.deps.usage.refund(imageId);
  }

  /** Refunds failed jobs whose failure event was lost (the process stopped in between). */
  async reconcile(): Promise<number> {
    let refunded = 0;
    for (const imageId of await this.deps.usage.failedUnrefunded()) if (await this.refund(imageId)) refunded++;
    return refunded;
  }

  /** Today's counted uses per operation for one user. */
  async today(uid: string): Promise<Record<string, number>> {
    return this.deps.usage.countsOn(uid, utcDay(this.now()));
  }

  /** One operation's allowance today: the limit, the uses left and the seconds until they reset (midnight UTC). */
  async allowance(uid: string, operation: string): Promise<{ limit: number; remaining: number; resetS: number }> {
    const used = (await this.today(uid))[operation] ?? 0;
    const now = this.now();
    const resetS = Math.ceil((nextUtcMidnight(now).getTime() - now.getTime()) / 1000);
    return { limit: this.deps.limit, remaining: Math.max(0, this.deps.limit - used), resetS };
  }

  currentTime(): Date {
    return this.now();
  }
}
