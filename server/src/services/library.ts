import { AppError } from '@ai-editor/core';
import { webpThumbnail } from '../adapters/image.js';
import type { Storage } from '../adapters/storage.js';
import type { ImageRow } from '../db/schema.js';
import type { Logger } from '../logging.js';
import type { ImageRepository, Owner } from '../repositories/images.js';

/** Thumbnails fit in this square: sharp on 2x screens for the ~96 px tiles of My images, and a few KB each. */
const THUMBNAIL_PX = 192;

/** Where a job's thumbnail is cached; derived from the id, so that every deleter knows it without a column. */
export const thumbnailKey = (id: number) => `thumbnails/${id}.webp`;

/** Every stored file of a job: inputs, results and the cached thumbnail. */
export function storedKeys(row: Pick<ImageRow, 'id' | 'originalKey' | 'maskKey' | 'file2Key' | 'resultKeys'>) {
  return [row.originalKey, row.maskKey, row.file2Key, ...(row.resultKeys ?? []), thumbnailKey(row.id)].filter(
    (k): k is string => !!k,
  );
}

export interface LibraryDeps {
  images: ImageRepository;
  storage: Storage;
  log: Logger;
  /** Named in the answer for a job whose files were deleted. */
  retentionHours: number;
  /** Tells the engines a photo is gone (its `metadata.photoKey`), so that what they keep about it is dropped. */
  forgetPhoto?: (photoKey: string) => void;
}

/** Tells the engines about each deleted job's photo. */
export function forgetPhotos(rows: Pick<ImageRow, 'metadata'>[], forget?: (photoKey: string) => void): void {
  for (const row of rows) if (typeof row.metadata.photoKey === 'string') forget?.(row.metadata.photoKey);
}

export interface Thumbnail {
  bytes: Buffer;
  /** Made from the finished result (cached, never changes) rather than from the photo of a job still running. */
  final: boolean;
}

/** "My images": a visitor's own jobs, listed newest first, deleted on request, each with a small thumbnail. */
export class LibraryService {
  constructor(private readonly deps: LibraryDeps) {}

  /** One page, newest first; `cursor` is the last id of the previous page. Files already swept are not listed. */
  async list(owner: Owner, page: { cursor?: number; limit: number }) {
    const rows = await this.deps.images.listOwned(owner, { cursor: page.cursor, limit: page.limit + 1 });
    const more = rows.length > page.limit;
    const items = more ? rows.slice(0, page.limit) : rows;
    return { items, nextCursor: more ? (items.at(-1)?.id ?? null) : null };
  }

  /**
   * Deletes the row first, then its files: a job still running then finds no row to complete and removes its own
   * results (services/jobs.ts), so nothing is left behind. Anyone but the owner gets the 404 of a missing job.
   */
  async remove(owner: Owner, id: number): Promise<void> {
    const rows = await this.deps.images.deleteOwned(owner, id);
    if (rows.length === 0) throw new AppError('NOT_FOUND');
    await this.deleteFiles(rows);
  }

  async removeAll(owner: Owner): Promise<number> {
    const rows = await this.deps.images.deleteOwned(owner);
    await this.deleteFiles(rows);
    return rows.length;
  }

  private async deleteFiles(rows: ImageRow[]): Promise<void> {
    forgetPhotos(rows, this.deps.forgetPhoto);
    await Promise.all(
      rows
        .flatMap(storedKeys)
        .map((key) =>
          this.deps.storage.delete(key).catch((err) => this.deps.log.warn({ err, key }, 'could not delete')),
        ),
    );
  }

  /**
   * The job's thumbnail: of its first result once completed (made once, then read from storage), else of the
   * uploaded photo (made each time, as the result will replace it). 404 when there is nothing to show.
   */
  async thumbnail(row: ImageRow): Promise<Thumbnail> {
    if (row.purgedAt) throw new AppError('RESULT_EXPIRED', { hours: this.deps.retentionHours });
    const result = row.status === 'completed' ? row.resultKeys[0] : undefined;
    const source = result ?? row.originalKey;
    if (!source) throw new AppError('NOT_FOUND');
    const key = thumbnailKey(row.id);
    if (result) {
      const cached = await this.deps.storage.get(key).catch(() => undefined);
      if (cached) return { bytes: cached, final: true };
    }
    const bytes = await webpThumbnail(await this.deps.storage.get(source), THUMBNAIL_PX, 70);
    if (result) {
      await this.deps.storage.put(key, bytes, 'image/webp');
      // Deleted meanwhile: its files are gone, so this one must go too.
      if (!(await this.deps.images.exists(row.id))) await this.deps.storage.delete(key);
    }
    return { bytes, final: Boolean(result) };
  }
}
