import { OPERATIONS, type Operation, type OperationId } from '@ai-editor/core';
import { useQuery } from '@tanstack/react-query';
import { queries } from '@/lib/queries';

/** The server's health, shared by every page that lists tools (one request, cached by React Query). */
export function useHealth(refetchInterval?: number) {
  return useQuery({
    ...queries.health(),
    refetchInterval,
    staleTime: refetchInterval ? 0 : 60_000,
  });
}

/**
 * Whether this server can run the operation. Unknown while loading or when health cannot be read: the page then
 * lets the visitor try, and the server's own refusal is shown.
 */
export function useEngineAvailability(operation: OperationId): { available?: boolean; reason?: string } {
  const { data } = useHealth();
  const engine = data?.engines?.find((e) => e.operation === operation);
  return engine ? { available: engine.available, reason: engine.reason } : {};
}

/** What a listing needs to know about each tool on this server. */
export interface ToolOffer {
  /** The ids the server said it cannot run (empty until health is known). */
  unavailable: ReadonlySet<OperationId>;
  /** False for tools that are coming soon or that this server cannot run. */
  offered(op: Operation): boolean;
  /** How many tools a visitor can use here: the catalogue's working tools less the ones the server cannot run. */
  count: number;
}

/** The one source of "can a visitor use this tool here" for listings, counts and recommendations. */
export function useToolOffer(): ToolOffer {
  const { data } = useHealth();
  const unavailable = new Set((data?.engines ?? []).filter((e) => !e.available).map((e) => e.operation as OperationId));
  const offered = (op: Operation) => op.status === 'working' && !unavailable.has(op.id);
  return { unavailable, offered, count: OPERATIONS.filter(offered).length };
}
