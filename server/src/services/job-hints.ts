import { expectedMs, laneOf, type OperationId } from '@ai-editor/core';
import type { JobDescription } from '../adapters/queue.js';
import type { ImageRow } from '../db/schema.js';
import type { ImageRepository } from '../repositories/images.js';

/**
 * A job's scheduling hints (adapters/scheduling.ts): its expected time, written at submit from the photo's size
 * (`metadata.expectedMs`), its lane, and its owner (the signed-in user, else the session).
 */
export function hintsOf(row: ImageRow): JobDescription {
  const operation = row.operation as OperationId;
  const expected = Number(row.metadata.expectedMs ?? expectedMs(operation));
  return { operation, lane: laneOf(expected), expectedMs: expected, owner: row.ownerUid ?? row.ownerSession };
}

export async function describeJob(images: ImageRepository, id: number): Promise<JobDescription | undefined> {
  const row = await images.find(id);
  return row && hintsOf(row);
}
