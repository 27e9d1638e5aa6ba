import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../adapters/db.js';
import { type WebhookDeliveryRow, webhookDeliveries } from '../db/schema.js';

export type NewWebhookDelivery = typeof webhookDeliveries.$inferInsert;

/** The webhook_deliveries rows: messages to send, and how their delivery went. */
export class WebhookDeliveryRepository {
  constructor(private readonly db: Database) {}

  /** Records a message once per job and event (a job's outcome is recorded once; a second call changes nothing). */
  async insert(values: NewWebhookDelivery): Promise<boolean> {
    const rows = await this.db
      .insert(webhookDeliveries)
      .values(values)
      .onConflictDoNothing()
      .returning({ id: webhookDeliveries.id });
    return rows.length > 0;
  }

  /**
   * Takes up to `limit` due messages (or the one named `id`) for an attempt: each is counted and leased for
   * `leaseMs` in the same statement (rows locked by another process are skipped), so that two processes never
   * send one attempt twice; a process that dies mid-attempt leaves it to be retried when the lease ends.
   */
  async claim(opts: { id?: string; limit: number; leaseMs: number }): Promise<WebhookDeliveryRow[]> {
    const t = webhookDeliveries;
    const due = this.db
      .select({ id: t.id })
      .from(t)
      .where(and(eq(t.status, 'pending'), lte(t.nextAttemptAt, sql`now()`), opts.id ? eq(t.id, opts.id) : undefined))
      .orderBy(asc(t.nextAttemptAt))
      .limit(opts.limit)
      .for('update', { skipLocked: true });
    return this.db
      .update(t)
      .set({
        attempts: sql`${t.attempts} + 1`,
        nextAttemptAt: sql`now() + ${`${opts.leaseMs} milliseconds`}::interval`,
      })
      .where(inArray(t.id, due))
      .returning();
  }

  async delivered(id: string, statusCode: number): Promise<void> {
    await this.db
      .update(webhookDeliveries)
      .set({
        status: 'delivered',
        lastStatusCode: statusCode,
        lastError: null,
        nextAttemptAt: null,
        deliveredAt: sql`now()`,
      })
      .where(eq(webhookDeliveries.id, id));
  }

  /** A failed attempt: retried at `retryAt`, or, without one, given up (status failed). */
  async attemptFailed(id: string, result: { statusCode: number | null; error: string; retryAt?: Date }) {
    await this.db
      .update(webhookDeliveries)
      .set({
        status: result.retryAt ? 'pending' : 'failed',
        lastStatusCode: result.statusCode,
        lastError: result.error.slice(0, 500),
        nextAttemptAt: result.retryAt ?? null,
      })
      .where(eq(webhookDeliveries.id, id));
  }

  forImage(imageId: number): Promise<WebhookDeliveryRow[]> {
    return this.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.imageId, imageId))
      .orderBy(asc(webhookDeliveries.createdAt));
  }
}
