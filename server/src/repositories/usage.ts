import { and, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../adapters/db.js';
import { images, usageCharges, usageCounters } from '../db/schema.js';

/** The daily use counters and the charge of each job to one of them. */
export class UsageRepository {
  constructor(private readonly db: Database) {}

  /** Counts one use on `day` if the counter is below `limit`, in one statement; false when it was not. */
  async increment(uid: string, operation: string, day: string, limit: number): Promise<boolean> {
    const rows = await this.db
      .insert(usageCounters)
      .values({ uid, operation, day, count: 1 })
      .onConflictDoUpdate({
        target: [usageCounters.uid, usageCounters.operation, usageCounters.day],
        set: { count: sql`${usageCounters.count} + 1` },
        setWhere: sql`${usageCounters.count} < ${limit}`,
      })
      .returning({ count: usageCounters.count });
    return rows.length > 0;
  }

  async decrement(uid: string, operation: string, day: string): Promise<void> {
    await this.db
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

  /** Records which counter job `imageId` was charged to (once). */
  async recordCharge(imageId: number, uid: string, operation: string, day: string): Promise<void> {
    await this.db.insert(usageCharges).values({ imageId, uid, operation, day }).onConflictDoNothing();
  }

  /** Gives a job's use back, exactly once: only the statement that sets the refund marker decrements. */
  async refund(imageId: number): Promise<boolean> {
    const result = await this.db.execute(sql`
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

  /** Jobs that failed while their use is still counted. */
  async failedUnrefunded(): Promise<number[]> {
    const rows = await this.db
      .select({ imageId: usageCharges.imageId })
      .from(usageCharges)
      .innerJoin(images, eq(images.id, usageCharges.imageId))
      .where(and(eq(images.status, 'failed'), sql`${usageCharges.refundedAt} is null`));
    return rows.map((r) => r.imageId);
  }

  /** One user's counted uses per operation on `day`. */
  async countsOn(uid: string, day: string): Promise<Record<string, number>> {
    const rows = await this.db
      .select({ operation: usageCounters.operation, count: usageCounters.count })
      .from(usageCounters)
      .where(and(eq(usageCounters.uid, uid), eq(usageCounters.day, day)));
    return Object.fromEntries(rows.map((r) => [r.operation, r.count]));
  }
}
