import type { ImageRow } from '../../src/db/schema.js';

/** A job's row as the repository returns it: a pending denoising job of a guest, with `patch` over it. */
export function imageRow(patch: Partial<ImageRow> = {}): ImageRow {
  const now = new Date();
  return {
    id: 7,
    operation: 'denoising',
    status: 'pending',
    ownerSession: 'session-a',
    ownerUid: null,
    parameters: {},
    metadata: { stage: 'queued' },
    originalKey: 'originals/x/file.png',
    maskKey: null,
    file2Key: null,
    resultKeys: [],
    attempts: 0,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
    purgedAt: null,
    sourceImageId: null,
    sourceIndex: null,
    apiKeyId: null,
    webhookUrl: null,
    inputWidth: null,
    inputHeight: null,
    inputBytes: null,
    engineHost: null,
    failureReason: null,
    ...patch,
  };
}
