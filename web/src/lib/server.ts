import { useQuery } from '@tanstack/react-query';
import { queries } from './queries';

/** `GET /api/config`: the settings in force on this server. */
export function useServerConfig() {
  return useQuery(queries.config());
}
