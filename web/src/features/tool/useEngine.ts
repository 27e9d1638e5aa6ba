import type { OperationId } from '@ai-editor/core';
import { useQuery } from '@tanstack/react-query';
import type { Health } from '@/lib/server';

/** `GET /api/health`, read even when it answers 503 (which it does when some other part is degraded). */
export const healthQuery = {
  queryKey: ['/api/health'],
  queryFn: async ({ signal }: { signal: AbortSignal }): Promise<Health> =>
    (await fetch('/api/health', { credentials: 'include', signal })).json(),
};

/**
 * Whether this server can run the operation, from `GET /api/health` (read even when it answers 503, which it does
 * when some other part is degraded). Unknown while loading or when health cannot be read: the page then lets the
 * visitor try, and the server's own refusal is shown.
 */
export function useEngineAvailability(operation: OperationId): { available?: boolean; reason?: string } {
  const { data } = useQuery(healthQuery);
  const engine = data?.engines?.find((e) => e.operation === operation);
  return engine ? { available: engine.available, reason: engine.reason } : {};
}
