import { utcDay } from '@ai-editor/core';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../adapters/db.js';
import { images, usageCharges, usageCounters } from '../db/schema.js';

export interface UsageDeps {
  db: Database;
  /** Uses per signed-in user per operation per UTC day. */
  limit: number;
  now?: () => Date;
}

/**
 * The daily count (SPEC §5, §9): one row per uid, operation and UTC day. A use is counted by one statement that
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
    const rows = await this.deps.db
      .insert(usageCounters)
      .values({ uid, operation, day, count: 1 })
      .onConflictDoUpdate({
        target: [usageCounters.uid, usageCounters.operation, usageCounters.day],
        set: { count: sql`${usageCounters.count} + 1` },
        setWhere: sql`${usageCounters.count} < ${this.deps.limit}`,
      })
      .returning({ count: usageCounters.count });
    return rows.length ? day : undefined;
  }

  /** Takes back a use that was counted for a submission that then never became a job. */
  async release(uid: string, operation: string, day: string): Promise<void> {
    await this.deps.db
      .update(usageCounters)
      .set({ count: sql`${usageCounters.count} - 1` })
      .where(
        and(
          eq(usageCounters.uid, uid),
          eq(usageCounters.operation, operation),
          eq(usageCounters.day, day),
          gt(usageCounters.count, 0),
        ),
      );
  }

  /**
   * Records which counter job `imageId` was charged to. If the job already failed (it can, before this runs),
   * the use goes back at once; `refund` is idempotent, so a concurrent refund from the failure event is harmless.
   */
  async charge(imageId: number, uid: string, operation: string, day: string): Promise<void> {
    await this.deps.db.insert(usageCharges).values({ imageId, uid, operation, day }).onConflictDoNothing();
    const [row] = await this.deps.db.select({ status: images.status }).from(images).where(eq(images.id, imageId));
    if (row?.status === 'failed') await this.refund(imageId);
  }

  /** Gives a failed job's use back, exactly once: only the statement that sets the marker decrements. */
  async refund(imageId: number): Promise<boolean> {
    const result = await this.deps.db.execute(sql`
      with refunded as (
        update ${usageCharges} set refunded_at = now()
        where image_id = ${imageId} and refunded_at is null
        returning uid, operation, day)
      update ${usageCounters} c set count = c.count - 1
      from refunded r
      where c.uid = r.uid and c.operation = r.operation and c.day = r.day and c.count > 0
      returning c.count`);
    return (result as unknown as { rows: unknown[] }).rows.length > 0;
  }

  /** Refunds failed jobs whose failure event was lost (the process stopped in between). */
  async reconcile(): Promise<number> {
    const pending = await this.deps.db
      .select({ imageId: usageCharges.imageId })
      .from(usageCharges)
      .innerJoin(images, eq(images.id, usageCharges.imageId))
      .where(and(eq(images.status, 'failed'), sql`${usageCharges.refundedAt} is null`));
    let refunded = 0;
    for (const { imageId } of pending) if (await this.refund(imageId)) refunded++;
    return refunded;
  }

  /** Today's counted uses per operation for one user. */
  async today(uid: string): Promise<Record<string, number>> {
    const rows = await this.deps.db
      .select({ operation: usageCounters.operation, count: usageCounters.count })
      .from(usageCounters)
      .where(and(eq(usageCounters.uid, uid), eq(usageCounters.day, utcDay(this.now()))));
    return Object.fromEntries(rows.map((r) => [r.operation, r.count]));
  }

  currentTime(): Date {
    return this.now();
  }
}
