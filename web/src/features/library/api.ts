import { apiRequest } from '@/lib/api';
import { fetchBlob, type ImageJob, type JobSource } from '../tool/jobs';

/** One job in My images (`GET /api/images`): the job's view plus its thumbnail and when its files go. */
export interface LibraryItem extends ImageJob {
  thumbnailUrl: string | null;
  expiresAt: string;
}

export interface LibraryPage {
  items: LibraryItem[];
  nextCursor: number | null;
}

export const LIBRARY_KEY = ['/api/images', 'library'] as const;
export const LIBRARY_PAGE_SIZE = 12;

export async function fetchLibraryPage(cursor: number | null, signal?: AbortSignal): Promise<LibraryPage> {
  const query = new URLSearchParams({ limit: String(LIBRARY_PAGE_SIZE) });
  if (cursor) query.set('cursor', String(cursor));
  const res = await fetch(`/api/images?${query}`, { credentials: 'include', signal });
  if (!res.ok) throw new Error(String(res.status));
  return (await res.json()) as LibraryPage;
}

export async function deleteImage(id: number): Promise<void> {
  await apiRequest('DELETE', `/api/images/${id}`);
}

export async function deleteAllImages(): Promise<number> {
  const res = await apiRequest('DELETE', '/api/images');
  return ((await res.json()) as { deleted: number }).deleted;
}

/** The result a chained job starts from, as a File for the page's preview and mask painting (not uploaded). */
export async function fetchResultPhoto(source: JobSource): Promise<File> {
  const blob = await fetchBlob(`/api/images/${source.id}/result/${source.index}`);
  return new File([blob], `result-${source.id}.png`, { type: blob.type || 'image/png' });
}
