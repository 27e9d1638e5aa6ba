import { type ImageJob, LIMITS } from '@ai-editor/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { queries } from '@/lib/queries';
import { streamJob } from './jobs';

/**
 * Keeps the cached jobs `ids` up to date by push while they run (one status stream each, at most `max` at once, so
 * that the browser's few connections per server stay free for the rest); returns the ids whose stream failed or
 * was not opened: those are polled.
 */
export function useJobStreams(ids: readonly number[], pending: (id: number) => boolean, max = 4): Set<number> {
  const queryClient = useQueryClient();
  const [lost, setLost] = useState<ReadonlySet<number>>(new Set());
  const watched = ids.filter((id) => pending(id) && !lost.has(id)).slice(0, max);
  const key = watched.join(',');
  useEffect(() => {
    if (!key) return;
    const closers = key.split(',').map((text) => {
      const id = Number(text);
      return streamJob(
        id,
        (job: ImageJob) => queryClient.setQueryData(queries.job(id).queryKey, job),
        () => setLost((old) => new Set(old).add(id)),
      );
    });
    return () => {
      for (const close of closers) close();
    };
  }, [key, queryClient]);
  return new Set(ids.filter((id) => !watched.includes(id)));
}

/** Whether the cached job may still change: pending, or not read yet. */
export function useIsRunning() {
  const queryClient = useQueryClient();
  return (id: number) => {
    const job = queryClient.getQueryData<ImageJob>(queries.job(id).queryKey);
    return !job || job.status === 'pending';
  };
}

/**
 * One job, as `GET /api/images/:id` shows it: pushed by the server while it runs (Server-Sent Events), polled every
 * `pollMs` only when the stream is not available.
 */
export function useJob(id: number | null, pollMs: number = LIMITS.pollIntervalToolMs) {
  const polled = useJobStreams(id === null ? [] : [id], useIsRunning());
  return useQuery({
    ...queries.job(id ?? 0),
    enabled: id !== null,
    refetchInterval: (q) =>
      q.state.status === 'success' && q.state.data?.status === 'pending' && id !== null && polled.has(id)
        ? pollMs
        : false,
  });
}
