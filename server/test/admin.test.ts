/**
 * The operator's side against the real server: admin routes refuse visitors and guests; an admin cancels another
 * visitor's running job (the use goes back), blocks and unblocks an account (its pending jobs are cancelled, its
 * requests refused meanwhile), every action lands in the audit log; Prometheus metrics on their own port only;
 * request ids; the orchestrator probes.
 */
import { randomUUID } from 'node:crypto';
import { type AdminEngines, type AdminUsage, errorMessage } from '@ai-editor/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/adapters/firebase-emulator.js';
import { mintGoogleUser, mintUser, signedInVisitor, signIn } from './support/auth.js';
import { blob, fixture, startTestServer, type TestServer, testEngine, type Visitor } from './support/server.js';

const ADMIN_EMAIL = `admin-${randomUUID()}@example.com`;
/** Named by ADMIN_EMAILS, but signed up with a password: the email is not verified. */
const UNVERIFIED_EMAIL = `unverified-${randomUUID()}@example.com`;

const submit = async (visitor: Visitor, operation: string) => {
  const res = await visitor.submit({ operation, file: blob(fixture('chelsea.png')) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
};

async function until<T>(what: string, check: () => Promise<T | undefined | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type AdminJob = {
  id: number;
  phase: string | null;
  status: string;
  engineHost: string | null;
  errorCode: string | null;
};
const json = async <T>(res: Response | Promise<Response>) => (await (await res).json()) as T;
const post = (visitor: Visitor, path: string) => visitor.fetch(path, { method: 'POST' });
const usedToday = async (visitor: Visitor, operation: string) =>
  (await json<{ usage: Record<string, { used: number }> }>(visitor.fetch('/api/me'))).usage[operation]?.used;

describe('the operator side', () => {
  let server: TestServer;
  let admin: Visitor;
  let metricsPort: number;
  beforeAll(async () => {
    metricsPort = await freePort();
    server = await startTestServer({
      env: { ADMIN_EMAILS: `${UNVERIFIED_EMAIL}, ${ADMIN_EMAIL.toUpperCase()}`, METRICS_PORT: String(metricsPort) },
      localEngineOverrides: { cartoonization: testEngine('hang') },
    });
    admin = server.visitor();
    await signIn(admin, await mintGoogleUser(ADMIN_EMAIL));
  });
  afterAll(() => server.close());

  it('tells the admin, and only the admin, that the account is one (the account menu links the page)', async () => {
    expect((await json<{ admin: boolean }>(admin.fetch('/api/me'))).admin).toBe(true);
    const visitor = await signedInVisitor(server);
    expect((await json<{ admin: boolean }>(visitor.fetch('/api/me'))).admin).toBe(false);
    // Named by ADMIN_EMAILS but not verified (a password account): not an admin.
    const unverified = server.visitor();
    await signIn(unverified, await mintUser('Unverified', UNVERIFIED_EMAIL));
    expect((await json<{ admin: boolean }>(unverified.fetch('/api/me'))).admin).toBe(false);
  });

  it('answers 403 ADMIN_ONLY on every admin route to a signed-in visitor and to a guest', async () => {
    const visitor = await signedInVisitor(server);
    const guest = server.visitor();
    const routes: [string, string][] = [
      ['GET', '/api/admin/jobs'],
      ['GET', '/api/admin/jobs?status=failed'],
      ['POST', '/api/admin/jobs/1/cancel'],
      ['GET', '/api/admin/engines'],
      ['GET', '/api/admin/usage'],
      ['GET', '/api/admin/accounts?email=a'],
      ['POST', '/api/admin/users/some-uid/block'],
      ['POST', '/api/admin/users/some-uid/unblock'],
      ['GET', '/api/admin/audit'],
    ];
    for (const [method, path] of routes) {
      for (const who of [visitor, guest]) {
        const res = await who.fetch(path, { method });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(await res.json()).toEqual({ code: 'ADMIN_ONLY', message: 'Only administrators may see this page' });
      }
    }
    for (const path of [
      '/api/admin/jobs',
      '/api/admin/engines',
      '/api/admin/usage',
      '/api/admin/accounts',
      '/api/admin/audit',
    ]) {
      expect((await admin.fetch(path)).status, path).toBe(200);
    }
    // Listed in the OpenAPI document.
    const doc = await json<{ paths: Record<string, unknown> }>(guest.fetch('/api/openapi.json'));
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/admin/jobs', '/api/admin/jobs/{id}/cancel', '/api/admin/users/{uid}/block']),
    );
  });

  it("cancels another visitor's running job: it fails 'Cancelled' and the use goes back", async () => {
    const visitor = await signedInVisitor(server);
    const id = await submit(visitor, 'cartoonization');
    expect(await usedToday(visitor, 'cartoonization')).toBe(1);
    const running = await until('the job to run', async () => {
      const { jobs } = await json<{ jobs: AdminJob[] }>(admin.fetch('/api/admin/jobs?status=running'));
      return jobs.find((j) => j.id === id && j.engineHost);
    });
    expect(running.engineHost).toMatch(/-\d+\/\d+$/);
    const res = await post(admin, `/api/admin/jobs/${id}/cancel`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, status: 'failed', errorCode: 'CANCELLED' });
    expect(await visitor.waitFor(id)).toMatchObject({
      status: 'failed',
      metadata: { error: 'Cancelled', errorCode: 'CANCELLED' },
    });
    await until('the use to come back', async () => (await usedToday(visitor, 'cartoonization')) === 0);
    // A finished job cannot be cancelled again; a missing one is 404.
    expect((await post(admin, `/api/admin/jobs/${id}/cancel`)).status).toBe(409);
    expect((await post(admin, '/api/admin/jobs/999999/cancel')).status).toBe(404);
    // The failure is listed with its code and the photo's size.
    const { jobs } = await json<{ jobs: (AdminJob & { photo: unknown })[] }>(
      admin.fetch('/api/admin/jobs?status=failed&operation=cartoonization&code=CANCELLED'),
    );
    expect(jobs.find((j) => j.id === id)).toMatchObject({
      errorCode: 'CANCELLED',
      reason: `cancelled by the administrator ${ADMIN_EMAIL}`,
      photo: { width: 451, height: 300 },
    });
  });

  it('blocks an account (403 Account suspended, its pending jobs cancelled), then unblocks it', async () => {
    const user = await mintGoogleUser(`blocked-${randomUUID()}@example.com`, 'Blocked User');
    const visitor = server.visitor();
    await signIn(visitor, user);
    const running = await submit(visitor, 'cartoonization');
    const waiting = await submit(visitor, 'cartoonization');
    // Found by email.
    const { accounts } = await json<{ accounts: { uid: string }[] }>(
      admin.fetch(`/api/admin/accounts?email=${encodeURIComponent(user.email.slice(0, 20))}`),
    );
    expect(accounts.map((a) => a.uid)).toEqual([user.uid]);

    const res = await post(admin, `/api/admin/users/${user.uid}/block`);
    expect(res.status).toBe(200);
    const blocked = await json<{ account: { blockedAt: string | null }; cancelledJobs: number[] }>(res);
    expect(blocked.account.blockedAt).not.toBeNull();
    expect(blocked.cancelledJobs.sort()).toEqual([running, waiting].sort());

    const refused = await visitor.fetch('/api/images');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ code: 'ACCOUNT_SUSPENDED', message: errorMessage('ACCOUNT_SUSPENDED') });
    expect((await visitor.submit({ operation: 'pencil-sketch', file: blob(fixture('chelsea.png')) })).status).toBe(403);
    // Its own state says so (the header shows it).
    expect(await json<{ suspended: boolean; user: { uid: string } }>(visitor.fetch('/api/me'))).toMatchObject({
      suspended: true,
      user: { uid: user.uid },
    });
    // Its token as a Bearer is refused too.
    const bearer = await fetch(`${server.url}/api/images`, { headers: { authorization: `Bearer ${user.idToken}` } });
    expect(bearer.status).toBe(403);
    // The admin sees its jobs, both cancelled.
    const { jobs } = await json<{ jobs: AdminJob[] }>(admin.fetch(`/api/admin/jobs?uid=${user.uid}`));
    expect(jobs.map((j) => [j.id, j.status, j.errorCode]).sort()).toEqual(
      [
        [running, 'failed', 'CANCELLED'],
        [waiting, 'failed', 'CANCELLED'],
      ].sort(),
    );

    expect((await post(admin, `/api/admin/users/${user.uid}/unblock`)).status).toBe(200);
    const me = await visitor.fetch('/api/me');
    expect(me.status).toBe(200);
    expect(await usedToday(visitor, 'cartoonization')).toBe(0);
  });

  it('writes every admin action to the audit log: who, what, on which target, when', async () => {
    const { entries } = await json<{ entries: { actorEmail: string; action: string; target: string; at: string }[] }>(
      admin.fetch('/api/admin/audit'),
    );
    const actions = entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['cancel-job', 'block-account', 'unblock-account']));
    for (const e of entries) {
      expect(e.actorEmail).toBe(ADMIN_EMAIL);
      expect(e.target).toMatch(/^(job|account):/);
      expect(Date.now() - Date.parse(e.at)).toBeLessThan(10 * 60_000);
    }
  });

  it('serves Prometheus metrics on METRICS_PORT only, with the duration of a job just run', async () => {
    const visitor = await signedInVisitor(server);
    const id = await submit(visitor, 'pencil-sketch');
    expect(await visitor.waitFor(id, 120_000)).toMatchObject({ status: 'completed' });
    // A guest refused a signed-in tool (the blocked account's refusals are above).
    const guest = await server.visitor().submit({ operation: 'pencil-sketch', file: blob(fixture('chelsea.png')) });
    expect(guest.status).toBe(403);
    expect(server.handle.metricsUrl).toBe(`http://127.0.0.1:${metricsPort}/metrics`);
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(text).toMatch(/job_duration_seconds_bucket\{le="[0-9.]+",operation="pencil-sketch",outcome="completed"\} 1/);
    expect(text).toMatch(/job_duration_seconds_count\{operation="cartoonization",outcome="CANCELLED"\} [1-9]/);
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="[0-9.]+",route="\/api\/images\/:id",method="GET",status="200"\}/,
    );
    expect(text).toMatch(/engine_host_ends_total\{cause="cancelled"\} [1-9]/);
    expect(text).toMatch(/job_queue_depth\{state="waiting"\} 0/);
    expect(text).toMatch(/uses_refused_total\{limit="FEATURE_RESTRICTED"\} 1/);
    expect(text).toMatch(/uses_refused_total\{limit="ACCOUNT_SUSPENDED"\} [1-9]/);
    expect(text).toMatch(/process_cpu_seconds_total/);
    // Not on the public port.
    const pub = await server.visitor().fetch('/metrics');
    expect(pub.status).toBe(404);
    expect(await pub.text()).not.toContain('job_duration_seconds');
  });

  // After the jobs above: 3 cartoonizations (1 + the blocked account's 2) and 1 pencil sketch, by 3 visitors.
  it('reports the engines (hosts and memory, jobs in the last hour, p50/p95) and usage (per day, distinct and top users)', async () => {
    const engines = await json<AdminEngines>(admin.fetch('/api/admin/engines'));
    const hosts = engines.processes.flatMap((p) => p.hosts);
    expect(hosts.some((h) => h.ready && h.pid !== null && h.rssMb > 0)).toBe(true);
    const sketch = engines.operations.find((o) => o.operation === 'pencil-sketch');
    expect(sketch).toMatchObject({ loaded: true, jobsLastHour: 1 });
    expect(sketch?.p50Ms).toBeGreaterThan(0);
    expect(sketch?.p95Ms).toBeGreaterThanOrEqual(sketch?.p50Ms ?? Infinity);
    // Cancelled jobs count as jobs, but have no run time.
    expect(engines.operations.find((o) => o.operation === 'cartoonization')).toMatchObject({
      jobsLastHour: 3,
      p50Ms: null,
      p95Ms: null,
    });

    const usage = await json<AdminUsage>(admin.fetch('/api/admin/usage'));
    const total = (operation: string) =>
      usage.days.filter((d) => d.operation === operation).reduce((n, d) => n + d.jobs, 0);
    expect([total('cartoonization'), total('pencil-sketch')]).toEqual([3, 1]);
    expect(usage.distinctUsers).toBe(3);
    expect(usage.topUsers[0]).toMatchObject({ jobs: 2, email: expect.stringMatching(/^blocked-/) });
    expect(usage.topUsers.map((u) => u.jobs)).toEqual([2, 1, 1]);
  });

  it('puts a request id on every answer, keeping a sane incoming one', async () => {
    const guest = server.visitor();
    const made = await guest.fetch('/api/health/live');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await guest.fetch('/api/me', { headers: { 'x-request-id': 'proxy-abc.123' } });
    expect(kept.headers.get('x-request-id')).toBe('proxy-abc.123');
    const replaced = await guest.fetch('/api/me', { headers: { 'x-request-id': 'bad id\twith spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers the liveness and readiness probes', async () => {
    const guest = server.visitor();
    expect(await json(guest.fetch('/api/health/live'))).toEqual({ status: 'ok' });
    const ready = await until('readiness', async () => {
      const res = await guest.fetch('/api/health/ready');
      return res.status === 200 && (await res.json());
    });
    expect(ready).toEqual({
      status: 'ready',
      checks: { database: true, storage: true, queue: true, engineHost: true },
    });
  });
});
