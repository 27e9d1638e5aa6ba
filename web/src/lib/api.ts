import { QueryClient, type QueryFunction } from '@tanstack/react-query';

/** SPEC §8: a non-OK response throws '{status}: {body text or status text}'. */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = (await res.text()) || res.statusText;
    throw new ApiError(res.status, `${res.status}: ${text}`);
  }
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The `{ code, message }` body of an API error, when the text is one. */
export function apiErrorBody(err: unknown): { code?: string; message?: string } | undefined {
  if (!(err instanceof Error)) return undefined;
  const json = err.message.slice(err.message.indexOf(':') + 1).trim();
  try {
    const body = JSON.parse(json) as unknown;
    return typeof body === 'object' && body !== null ? (body as { code?: string; message?: string }) : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON request with the session cookie; throws like the default loader on non-OK answers. */
export async function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
  const res = await fetch(url, {
    method,
    credentials: 'include',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await throwIfResNotOk(res);
  return res;
}

type UnauthorizedBehavior = 'returnNull' | 'throw';

/** SPEC §7 default data loader: GET the path in the query key, with cookies, parsed as JSON. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include', signal });
    if (options.on401 === 'returnNull' && res.status === 401) return null as T;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** SPEC §7: no retries, no refetch on focus or interval, never stale; mutations do not retry. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
    },
    mutations: { retry: false },
  },
});
