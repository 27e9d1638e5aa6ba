/**
 * The app's typed API client as the server sees its requests (the session cookie, JSON bodies, the Idempotency-Key)
 * and as a visitor sees its refusals: the same ApiError and ToolError, worded by the error catalogue, as before.
 */
import { getOperation } from '@ai-editor/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { submitJob } from '@/features/tool/jobs';
import { ApiError, api, dataOf } from '@/lib/api';

/** What the server answers next, and every request it was sent. */
let answer: () => Response;
const sent: Request[] = [];
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  sent.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      sent.push(request);
      return answer();
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('the typed client', () => {
  it('sends JSON with the session cookie, and no JSON content type on a request without a body', async () => {
    answer = () => json(201, { id: 3, name: 'ci' });
    await dataOf(api.POST('/api/keys', { body: { name: 'ci' } }));
    answer = () => new Response(null, { status: 204 });
    await dataOf(api.DELETE('/api/keys/{id}', { params: { path: { id: '3' } } }));

    const [create, revoke] = sent as [Request, Request];
    expect([create.method, new URL(create.url).pathname, create.credentials]).toEqual(['POST', '/api/keys', 'include']);
    expect(create.headers.get('content-type')).toBe('application/json');
    expect(await create.json()).toEqual({ name: 'ci' });
    expect([revoke.method, new URL(revoke.url).pathname]).toEqual(['DELETE', '/api/keys/3']);
    // Fastify refuses an empty body that says it is JSON.
    expect(revoke.headers.get('content-type')).toBeNull();
  });

  it('turns a refusal into the ApiError the pages show: status, { code, message } and the status-prefixed text', async () => {
    const body = { code: 'ADMIN_ONLY', message: 'Only administrators may see this page' };
    answer = () => json(403, body);
    const err = await dataOf(api.GET('/api/admin/usage')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 403, body, message: `403: ${JSON.stringify(body)}` });

    answer = () => new Response('upstream down', { status: 502, statusText: 'Bad Gateway' });
    const plain = await dataOf(api.GET('/api/me')).catch((e: unknown) => e);
    expect(plain).toMatchObject({ status: 502, body: undefined, message: '502: upstream down' });
  });
});

describe('submitJob', () => {
  const op = getOperation('denoising');
  const file = new File([new Uint8Array([1, 2, 3])], 'cat.png', { type: 'image/png' });

  it('posts the form with the operation in the address and its Idempotency-Key', async () => {
    answer = () => json(201, { id: 9, status: 'pending' });
    const job = await submitJob(op, { file, params: { strength: 10 }, idempotencyKey: 'k-1' });
    expect(job.id).toBe(9);
    const request = sent[0] as Request;
    expect(`${new URL(request.url).pathname}${new URL(request.url).search}`).toBe('/api/images?operation=denoising');
    expect(request.headers.get('idempotency-key')).toBe('k-1');
    const form = await request.formData();
    expect([form.get('operation'), form.get('strength'), (form.get('file') as File).name]).toEqual([
      'denoising',
      '10',
      'cat.png',
    ]);
  });

  it("shows a refusal with its catalogue title and the server's words, and no answer as an upload failure", async () => {
    answer = () => json(429, { code: 'DAILY_LIMIT_REACHED', message: 'Come back tomorrow' });
    await expect(submitJob(op, { file, params: {} })).rejects.toMatchObject({
      title: 'Daily Limit Reached',
      message: 'Come back tomorrow',
      code: 'DAILY_LIMIT_REACHED',
    });

    answer = () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(submitJob(op, { file, params: {} })).rejects.toMatchObject({ message: 'Failed to upload image' });
  });
});
