import type { operations } from '@ai-editor/client';
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
import { api, dataOf, getJson } from './api';
import { fetchJob } from './job-api';

/** `GET /api/health` answers 503 with the same body when some part is degraded, so both are read. */
async function fetchHealth(signal?: AbortSignal): Promise<Health> {
  const answer = await api.GET('/api/health', { signal });
  if (answer.response.status === 503) return answer.error as Health;
  return dataOf(answer);
}

/** The admin job list's filters (`GET /api/admin/jobs`), as the API names them. */
export type AdminJobFilter = NonNullable<operations['adminListJobs']['parameters']['query']>;

export const LIBRARY_PAGE_SIZE = 12;

/**
 * One query per endpoint, each with the one cache key of its resource, so that writing or invalidating a key
 * reaches every reader. A job's key is the prefix of its recommendations' keys.
 */
export const queries = {
  config: () =>
    queryOptions({
      queryKey: ['/api/config'],
      queryFn: ({ signal }): Promise<ClientConfig> => dataOf(api.GET('/api/config', { signal })),
    }),
  health: () => queryOptions({ queryKey: ['/api/health'], queryFn: ({ signal }) => fetchHealth(signal) }),
  me: () =>
    queryOptions({
      queryKey: ['/api/me'],
      queryFn: ({ signal }): Promise<Me> => dataOf(api.GET('/api/me', { signal })),
    }),
  /** A job, polled while it runs; a failure to read it is 'Failed to fetch image status'. */
  job: (id: number | string) =>
    queryOptions({ queryKey: ['/api/images', String(id)], queryFn: ({ signal }) => fetchJob(id, signal) }),
  recommendations: (id: number | string, of: 'photo' | 'result') => {
    const path = of === 'result' ? 'recommendations?of=result' : 'recommendations';
    return queryOptions({
      queryKey: [...queries.job(id).queryKey, path],
      queryFn: ({ signal }): Promise<Recommendation[]> =>
        dataOf(
          api.GET('/api/images/{id}/recommendations', {
            params: { path: { id: String(id) }, query: of === 'result' ? { of } : {} },
            signal,
          }),
        ),
    });
  },
  /** My images, a page at a time, per visitor. */
  library: (owner: string) =>
    infiniteQueryOptions({
      queryKey: ['/api/images', 'library', owner],
      queryFn: ({ pageParam, signal }): Promise<LibraryPage> => {
        const query = { limit: LIBRARY_PAGE_SIZE, ...(pageParam && { cursor: String(pageParam) }) };
        return dataOf(api.GET('/api/images', { params: { query }, signal }));
      },
      initialPageParam: null as number | null,
      getNextPageParam: (last) => last.nextCursor,
    }),
  /** My API keys (never their secrets), per user. */
  apiKeys: (owner: string) =>
    queryOptions({
      queryKey: ['/api/keys', owner],
      queryFn: async ({ signal }): Promise<ApiKey[]> => (await dataOf(api.GET('/api/keys', { signal }))).keys,
    }),
  /** The admin page: every visitor's jobs (with filters), engines, usage, accounts and the audit log. */
  adminJobs: (filter: AdminJobFilter) => {
    const query = Object.fromEntries(Object.entries(filter).filter(([, v]) => v)) as AdminJobFilter;
    return queryOptions({
      queryKey: ['/api/admin/jobs', filter],
      queryFn: ({ signal }): Promise<AdminJobList> => dataOf(api.GET('/api/admin/jobs', { params: { query }, signal })),
    });
  },
  adminEngines: () =>
    queryOptions({
      queryKey: ['/api/admin/engines'],
      queryFn: ({ signal }): Promise<AdminEngines> => dataOf(api.GET('/api/admin/engines', { signal })),
    }),
  adminUsage: () =>
    queryOptions({
      queryKey: ['/api/admin/usage'],
      queryFn: ({ signal }): Promise<AdminUsage> => dataOf(api.GET('/api/admin/usage', { signal })),
    }),
  adminAccounts: (email: string) =>
    queryOptions({
      queryKey: ['/api/admin/accounts', email],
      queryFn: ({ signal }): Promise<{ accounts: AdminAccount[] }> =>
        dataOf(api.GET('/api/admin/accounts', { params: { query: { email } }, signal })),
    }),
  adminAudit: () =>
    queryOptions({
      queryKey: ['/api/admin/audit'],
      queryFn: ({ signal }): Promise<AdminAudit> => dataOf(api.GET('/api/admin/audit', { signal })),
    }),
  openApi: () =>
    queryOptions({
      queryKey: ['/api/openapi.json'],
      // The document does not list itself among its paths, so the typed client has no name for it.
      queryFn: ({ signal }) => getJson<unknown>('/api/openapi.json', signal),
    }),
};
