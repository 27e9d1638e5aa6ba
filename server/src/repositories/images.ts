import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../adapters/db.js';
import { type ImageRow, images } from '../db/schema.js';

/** Who is asking: every visitor has a session; signed-in visitors also have a uid. */
export interface Owner {
  sessionId: string;
  uid?: string;
}

export type NewImage = typeof images.$inferInsert;

/** The stored files of a row claimed by the retention sweep. */
export type ExpiredRow = Pick<ImageRow, 'id' | 'originalKey' | 'maskKey' | 'file2Key' | 'resultKeys'>;

/** Adds `patch` to a row's metadata (a jsonb merge in the same statement, so concurrent writers keep each other's keys). */
const mergeMetadata = (patch: Record<string, unknown>) => sql`${images.metadata} || ${JSON.stringify(patch)}::jsonb`;

const pending = (id: number) => and(eq(images.id, id), eq(images.status, 'pending'));

/** Whether `owner` may see `row`: a signed-in visitor's by uid, and their session's guest jobs. */
export function owns(owner: Owner, row: Pick<ImageRow, 'ownerSession' | 'ownerUid'>): boolean {
  return row.ownerUid ? row.ownerUid === owner.uid : row.ownerSession === owner.sessionId;
}

/** The rows `owner` may see, exactly as `owns()` decides for a single row. */
function ownedBy(owner: Owner): SQL {
  const asGuest = and(isNull(images.ownerUid), eq(images.ownerSession, owner.sessionId)) as SQL;
  return owner.uid ? (or(eq(images.ownerUid, owner.uid), asGuest) as SQL) : asGuest;
}

/**
 * The image (job) rows: every query on the `images` table that the job, library and retention services make. The same
 * Drizzle schema serves the embedded PGlite and PostgreSQL, so this module is the one place that speaks SQL for them.
 */
export class ImageRepository {
  constructor(private readonly db: Database) {}

  async insert(values: NewImage): Promise<ImageRow> {
    const [row] = await this.db.insert(images).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async find(id: number): Promise<ImageRow | undefined> {
    const [row] = await this.db.select().from(images).where(eq(images.id, id));
    return row;
  }

  /** Status, results and sweep time of the rows among `ids` that exist. */
  async resultsOf(ids: number[]): Promise<Pick<ImageRow, 'id' | 'status' | 'resultKeys' | 'purgedAt'>[]> {
    if (ids.length === 0) return [];
    return this.db
      .select({ id: images.id, status: images.status, resultKeys: images.resultKeys, purgedAt: images.purgedAt })
      .from(images)
      .where(inArray(images.id, ids));
  }

  async exists(id: number): Promise<boolean> {
    const [row] = await this.db.select({ id: images.id }).from(images).where(eq(images.id, id));
    return Boolean(row);
  }

  /** pending, completed or failed; undefined when there is no such row. */
  async status(id: number): Promise<string | undefined> {
    const [row] = await this.db.select({ status: images.status }).from(images).where(eq(images.id, id));
    return row?.status;
  }

  async isPending(id: number): Promise<boolean> {
    return (await this.status(id)) === 'pending';
  }

  /** The operation of an image, which names its queue entry. */
  async operationOf(id: number): Promise<string | undefined> {
    const [row] = await this.db.select({ operation: images.operation }).from(images).where(eq(images.id, id));
    return row?.operation;
  }

  /** Pending job ids, oldest first. */
  async pendingIds(): Promise<number[]> {
    const rows = await this.db
      .select({ id: images.id })
      .from(images)
      .where(eq(images.status, 'pending'))
      .orderBy(asc(images.id));
    return rows.map((r) => r.id);
  }

  /** One more attempt of a job starting now. */
  async markStarted(id: number, now = new Date()): Promise<void> {
    await this.db
      .update(images)
      .set({
        attempts: sql`${images.attempts} + 1`,
        metadata: mergeMetadata({ stage: 'starting', startedAt: now.toISOString() }),
        updatedAt: now,
      })
      .where(eq(images.id, id));
  }

  /** Merges `patch` into a pending job's metadata (progress); a finished job is left alone. */
  async patchPending(id: number, patch: Record<string, unknown>): Promise<void> {
    await this.db
      .update(images)
      .set({ metadata: mergeMetadata(patch), updatedAt: new Date() })
      .where(pending(id));
  }

  /** Counts one more engine host this job brought down; the row after, or undefined if it is gone. */
  async countHostKill(id: number): Promise<ImageRow | undefined> {
    const [row] = await this.db
      .update(images)
      .set({
        metadata: sql`${images.metadata} || jsonb_build_object('hostKills', coalesce((${images.metadata}->>'hostKills')::int, 0) + 1)`,
        updatedAt: new Date(),
      })
      .where(eq(images.id, id))
      .returning();
    return row;
  }

  /** Ends a pending job with its results; undefined when it was no longer pending (or no longer exists). */
  async complete(id: number, resultKeys: string[], patch: Record<string, unknown>): Promise<ImageRow | undefined> {
    const now = new Date();
    const [row] = await this.db
      .update(images)
      .set({ status: 'completed', resultKeys, metadata: mergeMetadata(patch), completedAt: now, updatedAt: now })
      // A row whose files retention has already deleted takes no new ones: nothing would ever delete them.
      .where(and(pending(id), isNull(images.purgedAt)))
      .returning();
    return row;
  }

  /** Ends a pending job as failed; undefined when it had already ended. */
  async fail(id: number, patch: Record<string, unknown>): Promise<ImageRow | undefined> {
    const now = new Date();
    const [row] = await this.db
      .update(images)
      .set({ status: 'failed', metadata: mergeMetadata(patch), completedAt: now, updatedAt: now })
      .where(pending(id))
      .returning();
    return row;
  }

  /** One page of `owner`'s rows not yet swept, newest first, below id `cursor` when given. */
  async listOwned(owner: Owner, page: { cursor?: number; limit: number }): Promise<ImageRow[]> {
    return this.db
      .select()
      .from(images)
      .where(and(ownedBy(owner), isNull(images.purgedAt), page.cursor ? lt(images.id, page.cursor) : undefined) as SQL)
      .orderBy(desc(images.id))
      .limit(page.limit);
  }

  /** Deletes `owner`'s row `id`, or all of `owner`'s rows; returns the rows deleted. */
  async deleteOwned(owner: Owner, id?: number): Promise<ImageRow[]> {
    const which = id === undefined ? ownedBy(owner) : (and(eq(images.id, id), ownedBy(owner)) as SQL);
    return this.db.delete(images).where(which).returning();
  }

  /**
   * Marks up to `limit` rows created before `cutoff` as purged and returns them. SKIP LOCKED lets several processes
   * sweep at once without claiming the same rows.
   */
  async claimExpired(cutoff: Date, now: Date, limit: number): Promise<ExpiredRow[]> {
    const claimed = await this.db.execute(sql`
      update ${images} set purged_at = ${now.toISOString()}, updated_at = ${now.toISOString()}
      where id in (
        select id from ${images} where purged_at is null and created_at < ${cutoff.toISOString()}
        order by id limit ${limit} for update skip locked)
      returning id, original_key, mask_key, file2_key, result_keys`);
    const { rows } = claimed as unknown as { rows: ClaimedRow[] };
    return rows.map((r) => ({
      id: r.id,
      originalKey: r.original_key,
      maskKey: r.mask_key,
      file2Key: r.file2_key,
      resultKeys: r.result_keys ?? [],
    }));
  }

  /** Deletes purged rows created before `cutoff`; returns how many. */
  async deletePurgedBefore(cutoff: Date): Promise<number> {
    const deleted = await this.db
      .delete(images)
      .where(and(lt(images.createdAt, cutoff), isNotNull(images.purgedAt)))
      .returning({ id: images.id });
    return deleted.length;
  }
}

interface ClaimedRow {
  id: number;
  original_key: string | null;
  mask_key: string | null;
  file2_key: string | null;
  result_keys: string[] | null;
}
