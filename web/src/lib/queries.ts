import type {
  AdminAccount,
  AdminAudit,
  AdminEngines,
  AdminJobList,
  AdminUsage,
  ApiKey,
  ClientConfig,
  Health,
  LibraryPage,
  Me,
  Recommendation,
} from '@ai-editor/core';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { getJson, throwIfResNotOk } from './api';
import { fetchJob } from './job-api';

/** `GET /api/health` answers 503 with the same body when some part is degraded, so both are read. */
async function fetchHealth(signal?: AbortSignal): Promise<Health> {
  const res = await fetch('/api/health', { credentials: 'include', signal });
  if (res.status === 503) return (await res.json()) as Health;
  await throwIfResNotOk(res);
  return (await res.json()) as Health;
}

export const LIBRARY_PAGE_SIZE = 12;

/**
 * One query per endpoint, each with the one cache key of its resource, so that writing or invalidating a key
 * reaches every reader. A job's key is the prefix of its recommendations' keys.
 */
export const queries = {
  config: () =>
    queryOptions({
      queryKey: ['/api/config'],
      queryFn: ({ signal }) => getJson<ClientConfig>('/api/config', signal),
    }),
  health: () => queryOptions({ queryKey: ['/api/health'], queryFn: ({ signal }) => fetchHealth(signal) }),
  me: () => queryOptions({ queryKey: ['/api/me'], queryFn: ({ signal }) => getJson<Me>('/api/me', signal) }),
  /** A job, polled while it runs; a failure to read it is 'Failed to fetch image status'. */
  job: (id: number | string) =>
    queryOptions({ queryKey: ['/api/images', String(id)], queryFn: ({ signal }) => fetchJob(id, signal) }),
  recommendations: (id: number | string, of: 'photo' | 'result') => {
    const path = of === 'result' ? 'recommendations?of=result' : 'recommendations';
    return queryOptions({
      queryKey: [...queries.job(id).queryKey, path],
      queryFn: ({ signal }) => getJson<Recommendation[]>(`/api/images/${id}/${path}`, signal),
    });
  },
  /** My images, a page at a time, per visitor. */
  library: (owner: string) =>
    infiniteQueryOptions({
      queryKey: ['/api/images', 'library', owner],
      queryFn: ({ pageParam, signal }) => {
        const query = new URLSearchParams({ limit: String(LIBRARY_PAGE_SIZE) });
        if (pageParam) query.set('cursor', String(pageParam));
        return getJson<LibraryPage>(`/api/images?${query}`, signal);
      },
      initialPageParam: null as number | null,
      getNextPageParam: (last) => last.nextCursor,
    }),
  /** My API keys (never their secrets), per user. */
  apiKeys: (owner: string) =>
    queryOptions({
      queryKey: ['/api/keys', owner],
      queryFn: async ({ signal }) => (await getJson<{ keys: ApiKey[] }>('/api/keys', signal)).keys,
    }),
  /** The admin page: every visitor's jobs (with filters), engines, usage, accounts and the audit log. */
  adminJobs: (filter: Record<string, string>) => {
    const query = new URLSearchParams(Object.entries(filter).filter(([, v]) => v));
    return queryOptions({
      queryKey: ['/api/admin/jobs', filter],
      queryFn: ({ signal }) => getJson<AdminJobList>(`/api/admin/jobs?${query}`, signal),
    });
  },
  adminEngines: () =>
    queryOptions({
      queryKey: ['/api/admin/engines'],
      queryFn: ({ signal }) => getJson<AdminEngines>('/api/admin/engines', signal),
    }),
  adminUsage: () =>
    queryOptions({
      queryKey: ['/api/admin/usage'],
      queryFn: ({ signal }) => getJson<AdminUsage>('/api/admin/usage', signal),
    }),
  adminAccounts: (email: string) =>
    queryOptions({
      queryKey: ['/api/admin/accounts', email],
      queryFn: ({ signal }) =>
        getJson<{ accounts: AdminAccount[] }>(`/api/admin/accounts?${new URLSearchParams({ email })}`, signal),
    }),
  adminAudit: () =>
    queryOptions({
      queryKey: ['/api/admin/audit'],
      queryFn: ({ signal }) => getJson<AdminAudit>('/api/admin/audit', signal),
    }),
  openApi: () =>
    queryOptions({
      queryKey: ['/api/openapi.json'],
      queryFn: ({ signal }) => getJson<unknown>('/api/openapi.json', signal),
    }),
};
