/**
 * A corpus of bad requests over every route the OpenAPI document lists, sent as a guest, a signed-in visitor and an
 * administrator: ids past the column, negative, fractional, non-numeric, with NUL or broken percent-encoding; JSON
 * bodies that are malformed, of the wrong type, with a __proto__ key, control characters, wrong types or 70 KB
 * strings in every field; multipart bodies that are truncated, hold no image or a NUL operation; wrong content types;
 * nonsense queries. None may answer 5xx or hang, and every refusal is an error of the catalogue.
 */
import { randomUUID } from 'node:crypto';
import { ERRORS } from '@ai-editor/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintGoogleUser, signedInVisitor, signIn } from './support/auth.js';
import { startTestServer, type TestServer, type Visitor } from './support/server.js';

type Json = Record<string, any>;
interface BadRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const ADMIN_EMAIL = `admin-${randomUUID()}@example.com`;
const json = { 'content-type': 'application/json' };
const PATH_VALUES = [
  '0',
  '-1',
  '1.5',
  '2147483648',
  '99999999999999999999',
  'abc',
  '%00',
  '%E0%A4%A',
  '%20',
  "1'%20or%20'1'='1",
  'x'.repeat(300),
];
const QUERIES = [
  '?limit=-1&cursor=abc',
  '?limit=99999999999&cursor=-5',
  '?status=%00&operation=nope',
  `?email=${'%01'.repeat(200)}`,
];

/** Every field of the request body set to one bad value, as JSON. */
const everyField = (fields: string[], value: unknown) =>
  JSON.stringify(Object.fromEntries((fields.length ? fields : ['x']).map((f) => [f, value])));

function multipart(parts: string, boundary = 'corpus') {
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: parts };
}
const part = (name: string, value: string, file = false) =>
  `--corpus\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="a.png"\r\nContent-Type: image/png' : ''}\r\n\r\n${value}\r\n`;

/** The bad requests for one route of the document. */
function badRequests(method: string, template: string, op: Json): BadRequest[] {
  const at = (value: string) => template.replace(/\{[^}]+\}/g, value);
  const requests: BadRequest[] = [];
  if (template.includes('{')) for (const v of PATH_VALUES) requests.push({ method, path: at(v) });
  const path = at('1');
  if (method === 'GET') {
    for (const q of QUERIES) requests.push({ method, path: path + q });
    return requests;
  }
  const content = (op.requestBody?.content ?? {}) as Record<string, Json>;
  const fields = Object.keys(content['application/json']?.schema?.properties ?? {});
  requests.push(
    { method, path, headers: json },
    { method, path, headers: json, body: '{' },
    { method, path, headers: json, body: '[]' },
    { method, path, headers: json, body: 'null' },
    { method, path, headers: json, body: '{"__proto__":{"admin":true}}' },
    { method, path, headers: json, body: everyField(fields, 'a\u0000b\u0007') },
    { method, path, headers: json, body: everyField(fields, -1) },
    { method, path, headers: json, body: everyField(fields, { nested: [] }) },
    { method, path, headers: json, body: everyField(fields, 'x'.repeat(70_000)) },
    { method, path, headers: { 'content-type': 'text/plain' }, body: 'hello' },
    { method, path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=%00&operation=x' },
  );
  if (content['multipart/form-data']) {
    requests.push(
      { method, path, ...multipart(`${part('operation', 'pencil-sketch')}--corp`) },
      { method, path, ...multipart(`${part('operation', 'a\u0000b')}--corpus--\r\n`) },
      {
        method,
        path,
        ...multipart(`${part('operation', 'pencil-sketch')}${part('file', 'not an image', true)}--corpus--\r\n`),
      },
      {
        method,
        path,
        ...multipart(`${part('operation', 'object-removal')}${part('points', '[{"x":1e999}]')}--corpus--\r\n`),
      },
      { method, path, ...multipart('garbage', 'b'.repeat(70)) },
    );
  }
  return requests;
}

describe('hardening: a corpus of bad requests over every route', () => {
  let server: TestServer;
  let doc: Json;
  const visitors: [string, Visitor][] = [];
  beforeAll(async () => {
    server = await startTestServer({ env: { ADMIN_EMAILS: ADMIN_EMAIL } });
    doc = (await (await server.visitor().fetch('/api/openapi.json')).json()) as Json;
    const admin = server.visitor();
    await signIn(admin, await mintGoogleUser(ADMIN_EMAIL));
    visitors.push(['guest', server.visitor()], ['signed in', await signedInVisitor(server)], ['admin', admin]);
  }, 400_000);
  afterAll(() => server?.close());

  it('answers none with 5xx, none hangs, and every refusal is an error of the catalogue', async () => {
    const corpus = Object.entries(doc.paths as Record<string, Record<string, Json>>)
      .flatMap(([template, item]) =>
        Object.entries(item).flatMap(([method, op]) => badRequests(method.toUpperCase(), template, op)),
      )
      // Signing out (or in) changes who the next requests are from: last.
      .sort((a, b) => Number(a.path === '/api/session') - Number(b.path === '/api/session'));
    const statuses = new Map<number, number>();
    const wrong: string[] = [];
    for (const [who, visitor] of visitors) {
      for (const r of corpus) {
        const name = `${who}: ${r.method} ${r.path.slice(0, 80)} ${r.body?.slice(0, 40) ?? ''}`;
        const res = await visitor
          .fetch(r.path, { method: r.method, headers: r.headers, body: r.body, signal: AbortSignal.timeout(15_000) })
          .catch((err: Error) => err);
        if (res instanceof Error) {
          wrong.push(`${name} → ${res.name}`);
          continue;
        }
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const type = res.headers.get('content-type') ?? '';
        const body = type.includes('json') ? ((await res.json()) as Json) : (await res.body?.cancel(), undefined);
        if (res.status >= 500) wrong.push(`${name} → ${res.status} ${JSON.stringify(body)}`);
        else if (res.status >= 400 && !(body?.code in ERRORS))
          wrong.push(`${name} → ${res.status} not a catalogue error`);
      }
    }
    const sent = [...statuses.values()].reduce((a, b) => a + b, 0);
    console.log(`corpus: ${sent} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(wrong).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(532);
    expect((await server.visitor().fetch('/api/health/live')).status).toBe(200);
  }, 600_000);
});
