import { api, dataOf } from '@/lib/api';
import { fetchBlob, type JobSource } from '../tool/jobs';

export async function deleteImage(id: number): Promise<void> {
  await dataOf(api.DELETE('/api/images/{id}', { params: { path: { id: String(id) } } }));
}

export async function deleteAllImages(): Promise<number> {
  return (await dataOf(api.DELETE('/api/images'))).deleted;
}

/** The result a chained job starts from, as a File for the page's preview and mask painting (not uploaded). */
export async function fetchResultPhoto(source: JobSource): Promise<File> {
  const blob = await fetchBlob(`/api/images/${source.id}/result/${source.index}`);
  return new File([blob], `result-${source.id}.png`, { type: blob.type || 'image/png' });
}
