import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../adapters/db.js';
import { type ApiKeyRow, apiKeys } from '../db/schema.js';

export type NewApiKey = typeof apiKeys.$inferInsert;

/** The api_keys rows. */
export class ApiKeyRepository {
  constructor(private readonly db: Database) {}

  async insert(values: NewApiKey): Promise<ApiKeyRow> {
    const [row] = await this.db.insert(apiKeys).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  /** Live (not revoked) keys with this prefix: almost always one, the caller compares the hash. */
  byPrefix(prefix: string): Promise<ApiKeyRow[]> {
    return this.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.prefix, prefix), isNull(apiKeys.revokedAt)));
  }

  async find(id: number): Promise<ApiKeyRow | undefined> {
    const [row] = await this.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    return row;
  }

  /** A user's live keys, newest first. */
  listFor(uid: string): Promise<ApiKeyRow[]> {
    return this.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.uid, uid), isNull(apiKeys.revokedAt)))
      .orderBy(desc(apiKeys.id));
  }

  /** Revokes the user's key; false when it is not theirs or already revoked. */
  async revoke(id: number, uid: string): Promise<boolean> {
    const rows = await this.db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.uid, uid), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    return rows.length > 0;
  }

  /** Records a use, unless one was recorded less than `minIntervalMs` ago (by any process). */
  async touch(id: number, minIntervalMs: number): Promise<void> {
    const before = new Date(Date.now() - minIntervalMs);
    await this.db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, before))));
  }
}
