import type { OperationId } from '@ai-editor/core';

/** What the current visitor may do with one operation, and why not. */
export interface Access {
  /** May submit a job to this operation (guests: face-enhancement only; signed-in users: daily limit). */
  canUse: boolean;
  /** May download results (guests may not). */
  canDownload: boolean;
  /** Why `canUse` is false: a catalogue code whose title and message the tool page shows as a toast. */
  reason?: 'FEATURE_RESTRICTED' | 'DAILY_LIMIT_REACHED';
  /** Called after a job was accepted, so the rules can count the use (the server counts it too). */
  onUsed?: () => void;
}

/**
 * Seam for the sign-in issue (web/src/features/auth/): it replaces this body with the real rules from the
 * signed-in state. Until then everyone may use every operation and download; the server stays the authority
 * either way, and its refusals ('Feature Restricted', 'Daily Limit Reached', 'Download Restricted') reach the
 * visitor as toasts with those titles.
 */
export function useAccess(_operation: OperationId): Access {
  return { canUse: true, canDownload: true };
}
