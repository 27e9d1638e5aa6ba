import {
  defaultParams,
  extensionFor,
  type ImageJob,
  type Operation,
  type Params,
  type ParamValue,
} from '@ai-editor/core';
import { fetchBlob } from '../jobs';

/** What a job ran with, as its tool page shows it again. */
export interface RanWith {
  params: Params;
  photo: File | null;
  mask: Blob | null;
  photo2: File | null;
}

async function fileAt(url: string | null, name: string): Promise<File | null> {
  if (!url) return null;
  const blob = await fetchBlob(url);
  return new File([blob], `${name}.${extensionFor(blob.type)}`, { type: blob.type || 'image/png' });
}

/**
 * Reads back from the server what a job ran with: its settings (over the catalogue's defaults, the operation's own
 * fields only), its photo, its mask and its second photo, where the job still has them (null once expired).
 */
export async function fetchRanWith(op: Operation, job: ImageJob): Promise<RanWith> {
  const params = defaultParams(op);
  for (const def of op.params) {
    if (def.name in job.parameters) params[def.name] = job.parameters[def.name] as ParamValue;
  }
  const [photo, mask, photo2] = await Promise.all([
    fileAt(job.originalUrl, `photo-${job.id}`),
    job.maskUrl ? fetchBlob(job.maskUrl) : null,
    fileAt(job.secondPhotoUrl, `face-${job.id}`),
  ]);
  return { params, photo, mask, photo2 };
}
