import type { Storage } from '../adapters/storage.js';
import type { Logger } from '../logging.js';
import type { ImageRepository } from '../repositories/images.js';
import { storedKeys } from './library.js';

/** Rows stay (marked purged, so their pages can say what happened) for this many times the file retention. */
const ROW_RETENTION_FACTOR = 7;
const BATCH = 100;

export interface RetentionDeps {
  images: ImageRepository;
  storage: Storage;
  log?: Logger;
  /** Files are deleted this long after their job was created. */
  retentionHours: number;
  /** Submissions' Idempotency-Keys, forgotten after 24 hours in the same sweep. */
  idempotency?: { sweep(): Promise<number> };
}

/**
 * Deletes originals and results `retentionHours` after creation and marks their rows; deletes the rows themselves
 * later. Batches are claimed so that several processes can sweep at once without doing work twice.
 */
export class RetentionService {
  constructor(private readonly deps: RetentionDeps) {}

  async sweep(now = new Date()): Promise<{ purged: number; deleted: number; keys: number }> {
    const { images, storage, log, retentionHours } = this.deps;
    const cutoff = new Date(now.getTime() - retentionHours * 3_600_000);
    let purged = 0;
    for (;;) {
      const rows = await images.claimExpired(cutoff, now, BATCH);
      for (const row of rows) {
        await Promise.all(
          storedKeys(row).map((k) => storage.delete(k).catch((err) => log?.warn({ err, key: k }, 'could not delete'))),
        );
      }
      purged += rows.length;
      if (rows.length < BATCH) break;
    }
    const deleted = await images.deletePurgedBefore(
      new Date(now.getTime() - ROW_RETENTION_FACTOR * retentionHours * 3_600_000),
    );
    const keys = (await this.deps.idempotency?.sweep()) ?? 0;
    return { purged, deleted, keys };
  }

  /**
   * Result files that no row names (`results/<id>/<n>.png`): the row was deleted or swept, the job failed, or it
   * names other files; a pending job's are kept (it may be writing them in another process). Run at start, after
   * a crash could have cut a job short between writing its results and recording them.
   */
  async sweepOrphanResults(): Promise<number> {
    const { images, storage, log } = this.deps;
    const keys = (await storage.listKeys?.('results/')) ?? [];
    const byId = new Map<number, string[]>();
    for (const key of keys) {
      const id = Number(/^results\/(\d+)\//.exec(key)?.[1]);
      byId.set(id, [...(byId.get(id) ?? []), key]);
    }
    let removed = 0;
    const ids = [...byId.keys()].filter((id) => Number.isSafeInteger(id));
    for (let i = 0; i < ids.length; i += BATCH) {
      const rows = new Map((await images.resultsOf(ids.slice(i, i + BATCH))).map((r) => [r.id, r]));
      for (const id of ids.slice(i, i + BATCH)) {
        const row = rows.get(id);
        if (row?.status === 'pending' && !row.purgedAt) continue;
        const named = new Set(row && !row.purgedAt && row.status === 'completed' ? row.resultKeys : []);
        for (const key of byId.get(id) ?? []) {
          if (named.has(key)) continue;
          await storage.delete(key).catch((err) => log?.warn({ err, key }, 'could not delete'));
          removed++;
        }
      }
    }
    return removed;
  }
}
