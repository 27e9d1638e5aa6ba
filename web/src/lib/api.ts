import { createApiClient } from '@ai-editor/client';
import type { ApiErrorBody } from '@ai-editor/core';
import { QueryClient } from '@tanstack/react-query';

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

/** The `{ code, message }` of an error answer, checked by shape: the server sends only the catalogue's codes. */
function errorBody(body: unknown): ApiErrorBody | undefined {
  const fields = body as Partial<Record<keyof ApiErrorBody, unknown>> | null | undefined;
  return typeof fields?.code === 'string' && typeof fields.message === 'string' ? (body as ApiErrorBody) : undefined;
}

/**
 * The app's one client of the JSON API, typed by the paths generated from its OpenAPI document
 * (client/src/schema.d.ts): a path, parameter or body the API does not take fails the typecheck. Same origin, with
 * the session cookie; the browser adds Sec-Fetch-Site, which the server's cross-site check reads.
 */
export const api = createApiClient({
  credentials: 'include',
  // Looked up at each call, not once at start, so that tests can stand in for it.
  fetch: (request) => fetch(request),
});

/** What the typed client answers: the parsed body of an OK answer (`data`) or of a refusal (`error`). */
export interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * A refusal as an ApiError: its status and `{ code, message }` body; the message is '{status}: {body or status
 * text}', as the product shows it.
 */
export function apiError({ error, response }: Answer<unknown>): ApiError {
  const text = (typeof error === 'string' ? error : JSON.stringify(error)) || response.statusText;
  return new ApiError(response.status, errorBody(error), `${response.status}: ${text}`);
}

/** The data of the typed client's answer; a non-OK answer throws an ApiError. */
export async function dataOf<T>(request: Answer<T> | Promise<Answer<T>>): Promise<T> {
  const answer = await request;
  if (!answer.response.ok) throw apiError(answer);
  return answer.data as T;
}

/**
 * GET with the session cookie, parsed as JSON, for the one path the API's document does not describe: itself
 * (`/api/openapi.json`). A refusal becomes an ApiError as the typed client's do.
 */
export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { credentials: 'include', signal });
  if (res.ok) return (await res.json()) as T;
  const text = await res.text();
  let error: unknown = text;
  try {
    error = JSON.parse(text);
  } catch {
    // Not JSON: the text itself, as the typed client keeps it.
  }
  throw apiError({ error, response: res });
}

/** No retries, no refetch on focus or interval, never stale; mutations do not retry. Every query has its queryFn. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
    },
    mutations: { retry: false },
  },
});
