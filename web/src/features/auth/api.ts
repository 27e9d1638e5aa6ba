import type { OperationId, OperationUsage, UserType } from '@ai-editor/core';
import { useQuery } from '@tanstack/react-query';

/** `GET /api/me`: the server's view of the visitor, the only source of the auth state (DESIGN §4). */
export interface Me {
  user: { uid: string; name: string | null; email: string | null; photoURL: string | null } | null;
  type: UserType;
  canDownload: boolean;
  usage: Partial<Record<OperationId, OperationUsage>>;
  /** When today's uses reset (ISO, next midnight UTC); null for guests. */
  resetsAt: string | null;
}

export const ME_KEY = ['/api/me'] as const;

export function useMe() {
  return useQuery<Me>({ queryKey: ME_KEY });
}
