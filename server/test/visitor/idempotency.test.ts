import { randomUUID } from 'node:crypto';
import { errorMessage } from '@ai-editor/core';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys, images, usageCounters } from '../../src/db/schema.js';
import { signIn } from '../support/auth.js';
import { blob, fixture, startTestServer, type TestServer, testEngine, type Visitor } from '../support/server.js';

/** `Idempotency-Key` on POST /api/images: one submission, one job, one use, whatever the retries. */
let server: TestServer;
const photo = (name = 'chelsea.png') => blob(fixture(name), 'image/png');

beforeAll(async () => {
  server = await startTestServer({
    localEngineOverrides: { 'background-removal': testEngine('echo'), 'face-enhancement': testEngine('echo') },
  });
}, 240_000);
afterAll(() => server?.close());

function submit(v: Visitor, key: string | undefined, fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [k, val] of Object.entries(fields)) form.append(k, val);
  return v.fetch('/api/images?operation=background-removal', {
    method: 'POST',
    body: form,
    headers: key ? { 'idempotency-key': key } : {},
  });
}

async function used(uid: string, operation: string): Promise<number> {
  const rows = await server.handle.database.db
    .select({ count: usageCounters.count })
    .from(usageCounters)
    .where(and(eq(usageCounters.uid, uid), eq(usageCounters.operation, operation)));
  return rows.reduce((n, r) => n + r.count, 0);
}

const jobsOf = async (uid: string) =>
  (await server.handle.database.db.select({ id: images.id }).from(images).where(eq(images.ownerUid, uid))).length;

describe('Idempotency-Key', () => {
  it('the same key twice gives the same job (201, then 200) and counts one use', async () => {
    const v = server.visitor();
    const user = await signIn(v);
    const key = randomUUID();
    const fields = { operation: 'background-removal', file: photo() };
    const first = await submit(v, key, fields);
    expect(first.status).toBe(201);
    const second = await submit(v, key, fields);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const [a, b] = [(await first.json()) as { id: number }, (await second.json()) as { id: number }];
    expect(b.id).toBe(a.id);
    expect(await used(user.uid, 'background-removal')).toBe(1);
    expect(await jobsOf(user.uid)).toBe(1);
  });

  it('two POSTs 11 ms apart with one key (a double-click) make one job and one use', async () => {
    const v = server.visitor();
    const user = await signIn(v);
    const key = randomUUID();
    const fields = { operation: 'background-removal', file: photo() };
    const first = submit(v, key, fields);
    await new Promise((r) => setTimeout(r, 11));
    const answers = await Promise.all([first, submit(v, key, fields)]);
    const ids = await Promise.all(answers.map(async (r) => ((await r.json()) as { id: number }).id));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 201]);
    expect(ids[0]).toBe(ids[1]);
    expect(await used(user.uid, 'background-removal')).toBe(1);
    expect(await jobsOf(user.uid)).toBe(1);
  });

  it('ten concurrent requests with one key: one job, one use', async () => {
    const v = server.visitor();
    const user = await signIn(v);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => submit(v, key, { operation: 'background-removal', file: photo() })),
    );
    const ids = new Set(await Promise.all(answers.map(async (r) => ((await r.json()) as { id: number }).id)));
    expect(ids.size).toBe(1);
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await used(user.uid, 'background-removal')).toBe(1);
  });

  it('the same key with a different submission is a 422 with its message, and makes nothing', async () => {
    const v = server.visitor();
    const user = await signIn(v);
    const key = randomUUID();
    expect((await submit(v, key, { operation: 'background-removal', file: photo() })).status).toBe(201);
    const other = await submit(v, key, { operation: 'background-removal', file: photo('astronaut.png') });
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual({
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: errorMessage('IDEMPOTENCY_KEY_REUSED'),
    });
    expect(await used(user.uid, 'background-removal')).toBe(1);
    expect(await jobsOf(user.uid)).toBe(1);
  });

  it("keys are per owner: another visitor's request with the same key is its own job", async () => {
    const key = randomUUID();
    const [a, b] = [server.visitor(), server.visitor()];
    await Promise.all([signIn(a), signIn(b)]);
    const ra = await submit(a, key, { operation: 'background-removal', file: photo() });
    const rb = await submit(b, key, { operation: 'background-removal', file: photo() });
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect(((await ra.json()) as { id: number }).id).not.toBe(((await rb.json()) as { id: number }).id);
  });

  it('a refused submission (daily limit) gives the key back: it makes no job and may be retried', async () => {
    const v = server.visitor();
    await signIn(v);
    for (let i = 0; i < 2; i++) await submit(v, undefined, { operation: 'background-removal', file: photo() });
    const key = randomUUID();
    const refused = await submit(v, key, { operation: 'background-removal', file: photo() });
    expect(refused.status).toBe(429);
    const again = await submit(v, key, { operation: 'background-removal', file: photo() });
    expect(again.status).toBe(429);
    expect((await again.json()) as { code: string }).toMatchObject({ code: 'DAILY_LIMIT_REACHED' });
  });

  it('a malformed key is a 400; keys older than 24 hours are swept with the retention sweep', async () => {
    const v = server.visitor();
    await signIn(v);
    const bad = await submit(v, 'x'.repeat(300), { operation: 'background-removal', file: photo() });
    expect(bad.status).toBe(400);

    const key = randomUUID();
    expect((await submit(v, key, { operation: 'background-removal', file: photo() })).status).toBe(201);
    const { db } = server.handle.database;
    await db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(idempotencyKeys.key, key));
    const swept = await server.handle.retention.sweep();
    expect(swept.keys).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
  });

  it('guests have keys too (by session)', async () => {
    const guest = server.visitor();
    await guest.fetch('/api/me'); // the session cookie
    const key = randomUUID();
    const send = () => {
      const form = new FormData();
      form.append('file', photo());
      return guest.fetch('/api/images?operation=face-enhancement', {
        method: 'POST',
        body: form,
        headers: { 'idempotency-key': key },
      });
    };
    const [a, b] = await Promise.all([send(), send()]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(((await a.json()) as { id: number }).id).toBe(((await b.json()) as { id: number }).id);
  });
});
