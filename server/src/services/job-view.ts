import { type ImageJob, LIMITS } from '@ai-editor/core';
import type { ImageRow } from '../db/schema.js';

/** A job made by a guest and not (yet) moved to an account at sign-in. */
export const isGuestJob = (row: ImageRow) => row.ownerUid === null;

/** Where a pending job stands in the queue (JobService.queuePosition). */
export interface QueuePositions {
  queuePosition(row: ImageRow): Promise<number | undefined>;
}

/**
 * The API's view of a job (its shape: imageJobSchema in core): what GET /api/images/:id answers, each status stream
 * message, and each webhook's body.
 */
export async function imageView(row: ImageRow, queue: QueuePositions): Promise<ImageJob> {
  const base = `/api/images/${row.id}`;
  const purged = row.purgedAt !== null;
  // A guest's preview has its own address, so that no page keeps showing it once the job is an account's.
  const suffix = isGuestJob(row) ? `?preview=${LIMITS.guestPreviewMaxSidePx}` : '';
  const processedUrls = purged ? [] : row.resultKeys.map((_, i) => `${base}/result/${i}${suffix}`);
  const position = await queue.queuePosition(row);
  return {
    id: row.id,
    operation: row.operation,
    status: row.status,
    originalUrl: row.originalKey && !purged ? `${base}/original` : null,
    maskUrl: row.maskKey && !purged ? `${base}/mask` : null,
    secondPhotoUrl: row.file2Key && !purged ? `${base}/original2` : null,
    processedUrl: processedUrls[0] ?? null,
    processedUrls,
    downloadUrls: purged ? [] : row.resultKeys.map((_, i) => `${base}/download/${i}`),
    parameters: row.parameters,
    metadata: {
      ...(row.metadata as ImageJob['metadata']),
      ...(position !== undefined && { queuePosition: position }),
      ...(purged && { expired: true }),
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    sourceImageId: row.sourceImageId,
    sourceIndex: row.sourceIndex,
    ...(isGuestJob(row) && { preview: true }),
  };
}
