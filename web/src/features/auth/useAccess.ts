import type { Me, OperationId, OperationUsage } from '@ai-editor/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { queries } from '@/lib/queries';
import { useMe } from './api';

/** What the current visitor may do with one operation, and why not (the server enforces the same rules). */
export interface Access {
  /** May submit a job to this operation (guests: face-enhancement only; signed-in users: daily limit). */
  canUse: boolean;
  /** May download results (guests may not). */
  canDownload: boolean;
  /** Why `canUse` is false: a catalogue code whose title and message the tool page shows as a toast. */
  reason?: 'FEATURE_RESTRICTED' | 'DAILY_LIMIT_REACHED' | 'ACCOUNT_SUSPENDED';
  /** Called after a job was accepted: today's count changed on the server. */
  onUsed?: () => void;
  signedIn: boolean;
  /** Today's uses of this operation. */
  usage?: OperationUsage;
  /** When today's uses reset. */
  resetsAt?: Date;
}

/**
 * The rules for one operation, read from `GET /api/me`. Until the server has answered, nothing is refused here:
 * the server stays the authority and its refusals reach the visitor as the same toasts.
 */
export function useAccess(operation: OperationId): Access {
  const queryClient = useQueryClient();
  const { data: me } = useMe();

  const onUsed = useCallback(() => {
    // Show the new count at once, then take the server's word for it.
    queryClient.setQueryData(queries.me().queryKey, (old: Me | undefined) => {
      const u = old?.usage[operation];
      if (!old || !u || u.limit === null) return old;
      const used = u.used + 1;
      return { ...old, usage: { ...old.usage, [operation]: { ...u, used, left: Math.max(0, u.limit - used) } } };
    });
    void queryClient.invalidateQueries(queries.me());
  }, [queryClient, operation]);

  // A job that ends failed gives its use back on the server: refresh the count when a polled job fails.
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        // Every job's key starts with '/api/images' (queries.job).
        if (event.type !== 'updated' || event.query.queryKey[0] !== queries.job(0).queryKey[0]) return;
        const data = event.query.state.data as { status?: string } | undefined;
        if (event.action.type === 'success' && data?.status === 'failed') {
          void queryClient.invalidateQueries(queries.me());
        }
      }),
    [queryClient],
  );

  if (!me) return { canUse: true, canDownload: true, signedIn: false, onUsed };
  const usage = me.usage[operation];
  const signedIn = me.type !== 'guest';
  if (me.suspended) return { canUse: false, canDownload: false, reason: 'ACCOUNT_SUSPENDED', signedIn, onUsed };
  if (!signedIn && !usage?.allowed) {
    return { canUse: false, canDownload: me.canDownload, reason: 'FEATURE_RESTRICTED', signedIn, onUsed };
  }
  // Guests are counted too (per session, on the tools open to them), against the same daily allowance.
  const left = usage?.left ?? null;
  return {
    canUse: left === null || left > 0,
    canDownload: me.canDownload,
    reason: left === 0 ? 'DAILY_LIMIT_REACHED' : undefined,
    signedIn,
    usage,
    resetsAt: me.resetsAt ? new Date(me.resetsAt) : undefined,
    onUsed,
  };
}
