import { and, isNotNull, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../adapters/db.js';
import type { Storage } from '../adapters/storage.js';
import { images } from '../db/schema.js';
import { storedKeys } from './library.js';

/** Rows stay (marked purged, so their pages can say what happened) for this many times the file retention. */
const ROW_RETENTION_FACTOR = 7;
const BATCH = 100;

interface ClaimedRow {
  id: number;
  original_key: string | null;
  mask_key: string | null;
  file2_key: string | null;
  result_keys: string[] | null;
}

/**
 * Deletes originals and results `retentionHours` after creation and marks their rows; deletes the rows themselves
 * later. Each batch is claimed with SKIP LOCKED, so several processes can sweep at once without doing work twice.
 */
export async function sweepExpired(
  deps: { db: Database; storage: Storage; log?: FastifyBaseLogger },
  retentionHours: number,
  now = new Date(),
): Promise<{ purged: number; deleted: number }> {
  const cutoff = new Date(now.getTime() - retentionHours * 3_600_000);
  let purged = 0;
  for (;;) {
    const claimed = await deps.db.execute(sql`
      update ${images} set purged_at = ${now.toISOString()}, updated_at = ${now.toISOString()}
      where id in (
        select id from ${images} where purged_at is null and created_at < ${cutoff.toISOString()}
        order by id limit ${BATCH} for update skip locked)
      returning id, original_key, mask_key, file2_key, result_keys`);
    const { rows } = claimed as unknown as { rows: ClaimedRow[] };
    for (const r of rows) {
      const keys = storedKeys({
        id: r.id,
        originalKey: r.original_key,
        maskKey: r.mask_key,
        file2Key: r.file2_key,
        resultKeys: r.result_keys ?? [],
      });
      await Promise.all(
        keys.map((k) => deps.storage.delete(k).catch((err) => deps.log?.warn({ err, key: k }, 'could not delete'))),
      );
    }
    purged += rows.length;
    if (rows.length < BATCH) break;
  }
  const rowCutoff = new Date(now.getTime() - ROW_RETENTION_FACTOR * retentionHours * 3_600_000);
  const deleted = await deps.db
    .delete(images)
    .where(and(lt(images.createdAt, rowCutoff), isNotNull(images.purgedAt)))
    .returning({ id: images.id });
  return { purged, deleted: deleted.length };
}
