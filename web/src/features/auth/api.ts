import { useQuery } from '@tanstack/react-query';
import { queries } from '@/lib/queries';

/** `GET /api/me`: the server's view of the visitor, the only source of the auth state. */
export function useMe() {
  return useQuery(queries.me());
}
