/**
 * Inputs that used to end in a 500 or in the wrong answer, against the real server: a multipart boundary too long
 * for the parser, key ids past the column, control characters in text fields and addresses, blocking an account
 * that does not exist, a blocked account signing in, and a bodiless DELETE that names a JSON content type.
 */
import { randomUUID } from 'node:crypto';
import { errorMessage, getOperation, MAX_JOB_ID, parseParams } from '@ai-editor/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../src/db/schema.js';
import { mintGoogleUser, signedInVisitor, signIn } from './support/auth.js';
import { blob, fixture, startTestServer, type TestServer, type Visitor } from './support/server.js';

const ADMIN_EMAIL = `admin-${randomUUID()}@example.com`;
const json = { 'content-type': 'application/json' };

describe('hardening: inputs that reached the database or the parser', () => {
  let server: TestServer;
  let admin: Visitor;
  beforeAll(async () => {
    server = await startTestServer({ env: { ADMIN_EMAILS: ADMIN_EMAIL } });
    admin = server.visitor();
    await signIn(admin, await mintGoogleUser(ADMIN_EMAIL));
  }, 400_000);
  afterAll(() => server?.close());

  const accountRow = async (uid: string) =>
    server.handle.database.db.select().from(accounts).where(eq(accounts.uid, uid));

  it('answers a multipart boundary longer than the parser takes with a 400 that says so', async () => {
    const v = await signedInVisitor(server);
    const boundary = 'b'.repeat(300);
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="operation"\r\n\r\npencil-sketch\r\n--${boundary}--\r\n`;
    const res = await v.fetch('/api/images', {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'BAD_REQUEST',
      message: 'The multipart boundary is too long (RFC 2046 allows at most 70 characters)',
    });
    // A long boundary the parser takes still works.
    const form = new FormData();
    form.append('operation', 'pencil-sketch');
    form.append('file', blob(fixture('astronaut.png'), 'image/png'), 'a.png');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const sent = Buffer.from(await request.arrayBuffer()).toString('latin1');
    const original = /boundary=(.+)$/.exec(request.headers.get('content-type') ?? '')?.[1] ?? '';
    const long = 'c'.repeat(200);
    const ok = await v.fetch('/api/images', {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${long}` },
      body: Buffer.from(sent.replaceAll(original, long), 'latin1'),
    });
    expect(ok.status).toBe(201);
  });

  it('answers 404 for a key id past what the column holds, as for any missing key', async () => {
    const v = await signedInVisitor(server);
    for (const id of [String(MAX_JOB_ID + 1), '999999999999', '123456']) {
      const res = await v.fetch(`/api/keys/${id}`, { method: 'DELETE' });
      expect(res.status, id).toBe(404);
      expect(await res.json()).toEqual({ code: 'API_KEY_NOT_FOUND', message: 'API key not found' });
    }
  });

  it('refuses NUL and other control characters in text fields with a 400 naming the field', async () => {
    const v = await signedInVisitor(server);
    for (const name of ['a\u0000b', 'tab\u001b[31m']) {
      const res = await v.fetch('/api/keys', { method: 'POST', headers: json, body: JSON.stringify({ name }) });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        code: 'INVALID_PARAMETER',
        message: 'Invalid value for "name": must not contain control characters',
      });
    }
    expect(((await (await v.fetch('/api/keys')).json()) as { keys: unknown[] }).keys).toEqual([]);
    const contact = await fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'A', email: 'a@example.com', message: 'hello\u0000 there, a message' }),
    });
    expect(contact.status).toBe(400);
    expect(await contact.json()).toEqual({
      code: 'INVALID_PARAMETER',
      message: 'Invalid value for "message": must not contain control characters',
    });
    // Line breaks and tabs are text.
    const lines = await fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'A', email: 'a@example.com', message: 'line one\r\n\tline two' }),
    });
    expect(lines.status).toBe(201);
    // A prompt is a text field of the catalogue: checked by the function the server and the page share.
    expect(() => parseParams(getOperation('style-transfer'), { prompt: 'a portrait of img\u0000' })).toThrow(
      'Invalid value for "prompt": must be text without control characters',
    );
  });

  it('refuses a NUL uid and other control characters in the admin routes with a 400, not a 500', async () => {
    for (const [method, path, field] of [
      ['POST', '/api/admin/users/%00/block', 'uid'],
      ['POST', '/api/admin/users/a%00b/unblock', 'uid'],
      ['GET', '/api/admin/accounts?email=%00', 'email'],
      ['GET', '/api/admin/jobs?uid=%00', 'uid'],
      ['GET', '/api/admin/jobs?operation=%1b', 'operation'],
    ] as const) {
      const res = await admin.fetch(path, { method });
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toEqual({
        code: 'INVALID_PARAMETER',
        message: `Invalid value for "${field}": must not contain control characters`,
      });
    }
  });

  it('answers 404 to blocking or unblocking an account that never signed in here, and records none', async () => {
    const uid = `never-${randomUUID()}`;
    for (const action of ['block', 'unblock']) {
      const res = await admin.fetch(`/api/admin/users/${uid}/${action}`, { method: 'POST' });
      expect(res.status, action).toBe(404);
      expect(await res.json()).toEqual({ code: 'ACCOUNT_NOT_FOUND', message: errorMessage('ACCOUNT_NOT_FOUND') });
    }
    expect(await accountRow(uid)).toEqual([]);
    const audit = (await (await admin.fetch('/api/admin/audit')).json()) as { entries: { target: string }[] };
    expect(audit.entries.map((e) => e.target)).not.toContain(`account:${uid}`);
  });

  it('refuses sign-in to a blocked account with 403 Account suspended, and binds no session to it', async () => {
    const user = await mintGoogleUser(`blocked-${randomUUID()}@example.com`, 'Blocked User');
    const before = server.visitor();
    await signIn(before, user);
    expect((await admin.fetch(`/api/admin/users/${user.uid}/block`, { method: 'POST' })).status).toBe(200);

    const visitor = server.visitor();
    const res = await visitor.fetch('/api/session', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ idToken: user.idToken }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: 'ACCOUNT_SUSPENDED', message: errorMessage('ACCOUNT_SUSPENDED') });
    // The visitor is still a guest: the refused sign-in bound nothing.
    const me = (await (await visitor.fetch('/api/me')).json()) as { type: string; user: unknown };
    expect(me).toMatchObject({ type: 'guest', user: null });
    // Its token as a Bearer opens no session either.
    const bearer = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.idToken}` },
    });
    expect(bearer.status).toBe(403);

    expect((await admin.fetch(`/api/admin/users/${user.uid}/unblock`, { method: 'POST' })).status).toBe(200);
    await signIn(visitor, user);
    expect(((await (await visitor.fetch('/api/me')).json()) as { type: string }).type).toBe('authenticated');
  });

  it('takes a bodiless DELETE sent with content-type: application/json as one without a body', async () => {
    const v = await signedInVisitor(server);
    const created = await v.fetch('/api/keys', { method: 'POST', headers: json, body: '{"name":"axios"}' });
    const { id } = (await created.json()) as { id: number };
    const res = await v.fetch(`/api/keys/${id}`, { method: 'DELETE', headers: json });
    expect(res.status).toBe(204);
    expect(((await (await v.fetch('/api/keys')).json()) as { keys: unknown[] }).keys).toEqual([]);
    // A POST without a body is then judged by its route: the missing field is named.
    const empty = await v.fetch('/api/keys', { method: 'POST', headers: json });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { message: string }).message).toMatch(/^Invalid value for "name"/);
  });
});
