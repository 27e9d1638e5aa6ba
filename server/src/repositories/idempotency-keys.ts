import { and, eq, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../adapters/db.js';
import { idempotencyKeys } from '../db/schema.js';

/** The outcome of claiming a key: this request holds it, or another request made (or is making) its job. */
export type KeyClaim = { won: true } | { won: false; fingerprint: string; imageId: number | null };

/** The stored `Idempotency-Key`s of job submissions. */
export class IdempotencyKeyRepository {
  constructor(private readonly db: Database) {}

  /**
   * Claims (owner, key) for a new submission, in one statement: a key nobody holds, one that expired (created before
   * `expiredBefore`) or one whose request was abandoned without making a job (before `abandonedBefore`) is taken;
   * otherwise the holder's fingerprint and job are returned. Two requests at once cannot both win.
   */
  async claim(
    owner: string,
    key: string,
    fingerprint: string,
    expiredBefore: Date,
    abandonedBefore: Date,
  ): Promise<KeyClaim | undefined> {
    const t = idempotencyKeys;
    const won = await this.db
      .insert(t)
      .values({ owner, key, fingerprint })
      .onConflictDoUpdate({
        target: [t.owner, t.key],
        set: { fingerprint, imageId: null, createdAt: sql`now()` },
        setWhere: or(lt(t.createdAt, expiredBefore), and(isNull(t.imageId), lt(t.createdAt, abandonedBefore))) as SQL,
      })
      .returning({ key: t.key });
    if (won.length > 0) return { won: true };
    const [held] = await this.db
      .select({ fingerprint: t.fingerprint, imageId: t.imageId })
      .from(t)
      .where(and(eq(t.owner, owner), eq(t.key, key)));
    // Released by its holder in between: the caller claims again.
    return held && { won: false, ...held };
  }

  /** Records the job the key's submission made. */
  async attach(owner: string, key: string, imageId: number): Promise<void> {
    const t = idempotencyKeys;
    await this.db
      .update(t)
      .set({ imageId })
      .where(and(eq(t.owner, owner), eq(t.key, key)));
  }

  /** Gives a key back whose submission was refused (no job made): the same key may then be tried again. */
  async release(owner: string, key: string): Promise<void> {
    const t = idempotencyKeys;
    await this.db.delete(t).where(and(eq(t.owner, owner), eq(t.key, key), isNull(t.imageId)));
  }

  /** Deletes keys created before `cutoff`; returns how many. */
  async deleteBefore(cutoff: Date): Promise<number> {
    const t = idempotencyKeys;
    const deleted = await this.db.delete(t).where(lt(t.createdAt, cutoff)).returning({ key: t.key });
    return deleted.length;
  }
}
