import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };
export type ApiClient = Client<paths>;
/** A job as the API answers it (`GET /api/images/{id}`). */
export type ImageJob = operations['getJob']['responses'][200]['content']['application/json'];

/**
 * A typed client of the AI Editor API (openapi-fetch over the types generated from /api/openapi.json). With `key`,
 * every request carries `Authorization: Bearer <key>`.
 *
 * ```ts
 * const api = createApiClient({ baseUrl: 'http://localhost:5000', key: process.env.AIE_KEY });
 * const { data, error } = await api.GET('/api/images/{id}', { params: { path: { id: '1' } } });
 * ```
 */
export function createApiClient(opts: ClientOptions & { key?: string }): ApiClient {
  const { key, headers, ...rest } = opts;
  return createClient<paths>({
    ...rest,
    headers: { ...(headers as Record<string, string> | undefined), ...(key && { authorization: `Bearer ${key}` }) },
  });
}

/** Builds the multipart form of `POST /api/images` from plain fields (files as Blobs). */
export function submitForm(fields: Record<string, string | number | boolean | Blob | undefined>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    form.append(name, value instanceof Blob ? value : String(value));
  }
  return form;
}
