import type { ApiErrorBody } from '@ai-editor/core';
import { QueryClient, type QueryFunction } from '@tanstack/react-query';

/**
 * A non-OK answer: its status and, when the server sent one, its `{ code, message }` body. The message is
 * '{status}: {body text or status text}', as the product shows it.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * The `{ code, message }` of an error answer. Checked by shape only: the catalogue and zod stay out of the landing
 * page's JavaScript, and the server sends no other codes.
 */
function errorBody(text: string): ApiErrorBody | undefined {
  try {
    const body = JSON.parse(text) as Partial<Record<keyof ApiErrorBody, unknown>> | null;
    return typeof body?.code === 'string' && typeof body.message === 'string' ? (body as ApiErrorBody) : undefined;
  } catch {
    return undefined;
  }
}

export async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = (await res.text()) || res.statusText;
    throw new ApiError(res.status, errorBody(text), `${res.status}: ${text}`);
  }
}

/** A JSON request with the session cookie; throws an ApiError on non-OK answers. */
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

/** GET with the session cookie, parsed as JSON; throws an ApiError on non-OK answers. */
export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { credentials: 'include', signal });
  await throwIfResNotOk(res);
  return (await res.json()) as T;
}

type UnauthorizedBehavior = 'returnNull' | 'throw';

/** The default data loader: GET the path in the query key, with cookies, parsed as JSON. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include', signal });
    if (options.on401 === 'returnNull' && res.status === 401) return null as T;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** No retries, no refetch on focus or interval, never stale; mutations do not retry. */
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
