import type { Deleted } from '@ai-editor/core';
import { apiRequest } from '@/lib/api';
import { fetchBlob, type JobSource } from '../tool/jobs';

export async function deleteImage(id: number): Promise<void> {
  await apiRequest('DELETE', `/api/images/${id}`);
}

export async function deleteAllImages(): Promise<number> {
  const res = await apiRequest('DELETE', '/api/images');
  return ((await res.json()) as Deleted).deleted;
}

/** The result a chained job starts from, as a File for the page's preview and mask painting (not uploaded). */
export async function fetchResultPhoto(source: JobSource): Promise<File> {
  const blob = await fetchBlob(`/api/images/${source.id}/result/${source.index}`);
  return new File([blob], `result-${source.id}.png`, { type: blob.type || 'image/png' });
}
