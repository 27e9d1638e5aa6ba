import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook, WebhookTargetError } from '../../src/adapters/webhook-http.js';
import { signIn } from '../support/auth.js';
import { blob, fixture, startTestServer, type TestServer } from '../support/server.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local receiver: records every request, answers with the next status of `statuses` (then 200). */
async function startReceiver(statuses: number[] = []) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = statuses.shift() ?? 200;
      res.end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    async waitFor(n: number, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > end) throw new Error(`${received.length} of ${n} webhook requests after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return received;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function keyFor(server: TestServer) {
  const visitor = server.visitor();
  await signIn(visitor);
  const res = await visitor.fetch('/api/keys', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'hooks' }),
  });
  const key = (await res.json()) as { key: string; webhookSecret: string };
  const call = (pathname: string, init: RequestInit = {}) =>
    fetch(server.url + pathname, { ...init, headers: { authorization: `Bearer ${key.key}` } });
  const submit = (fields: Record<string, string | Blob>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return call('/api/images', { method: 'POST', body: form });
  };
  return { ...key, visitor, call, submit };
}

const photo = () => blob(fixture('chelsea.png'), 'image/png');

describe('signed webhooks, private targets allowed (a test receiver on this machine)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  }, 600_000);
  afterAll(() => server?.close());

  it('delivers the finished job signed per Standard Webhooks, retrying after a 500', { timeout: 120_000 }, async () => {
    const receiver = await startReceiver([500]);
    try {
      const key = await keyFor(server);
      const res = await key.submit({ file: photo(), operation: 'pencil-sketch', webhook: receiver.url });
      expect(res.status, await res.clone().text()).toBe(201);
      const job = (await res.json()) as { id: number };
      const [first, second] = await receiver.waitFor(2, 60_000);
      if (!first || !second) throw new Error('unreachable');
      // The retry is the same message (same id and body), signed anew.
      expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
      expect(second.body).toBe(first.body);
      const verifier = new Webhook(key.webhookSecret);
      const payload = verifier.verify(second.body, {
        'webhook-id': String(second.headers['webhook-id']),
        'webhook-timestamp': String(second.headers['webhook-timestamp']),
        'webhook-signature': String(second.headers['webhook-signature']),
      }) as { type: string; data: { id: number; status: string; processedUrl: string } };
      expect(payload.type).toBe('job.completed');
      expect(payload.data).toMatchObject({
        id: job.id,
        status: 'completed',
        processedUrl: `/api/images/${job.id}/result/0`,
      });
      // A wrong secret does not verify.
      expect(() =>
        new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(second.body, {
          'webhook-id': String(second.headers['webhook-id']),
          'webhook-timestamp': String(second.headers['webhook-timestamp']),
          'webhook-signature': String(second.headers['webhook-signature']),
        }),
      ).toThrow();

      // The owner sees each delivery's status (with the key or in the browser).
      const end = Date.now() + 10_000;
      let deliveries: { status: string; attempts: number; lastStatusCode: number }[] = [];
      while (Date.now() < end) {
        deliveries = (
          (await (await key.call(`/api/images/${job.id}/webhooks`)).json()) as { deliveries: typeof deliveries }
        ).deliveries;
        if (deliveries[0]?.status === 'delivered') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(deliveries).toMatchObject([
        { status: 'delivered', attempts: 2, lastStatusCode: 200, event: 'job.completed' },
      ]);
      expect((await key.visitor.fetch(`/api/images/${job.id}/webhooks`)).status).toBe(200);
      // Another visitor gets the 404 of a job that does not exist.
      expect((await server.visitor().fetch(`/api/images/${job.id}/webhooks`)).status).toBe(404);
    } finally {
      await receiver.close();
    }
  });

  it('tells a failed job too (here: cancelled)', { timeout: 120_000 }, async () => {
    const receiver = await startReceiver();
    try {
      const key = await keyFor(server);
      const res = await key.submit({ file: photo(), operation: 'super-resolution', scale: '4', webhook: receiver.url });
      const job = (await res.json()) as { id: number };
      expect((await key.call(`/api/images/${job.id}/cancel`, { method: 'POST' })).status).toBe(200);
      const [hook] = await receiver.waitFor(1);
      const payload = new Webhook(key.webhookSecret).verify(hook?.body ?? '', {
        'webhook-id': String(hook?.headers['webhook-id']),
        'webhook-timestamp': String(hook?.headers['webhook-timestamp']),
        'webhook-signature': String(hook?.headers['webhook-signature']),
      }) as { type: string; data: { status: string; metadata: { error: string } } };
      expect(payload.type).toBe('job.failed');
      expect(payload.data.status).toBe('failed');
      expect(payload.data.metadata.error).toBe('Cancelled');
    } finally {
      await receiver.close();
    }
  });

  it('is for jobs submitted with an API key', async () => {
    const visitor = server.visitor();
    await signIn(visitor);
    const res = await visitor.submit({ file: photo(), operation: 'pencil-sketch', webhook: 'https://example.com/h' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('WEBHOOK_NEEDS_API_KEY');
  });
});

describe('webhook targets on private networks (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 600_000);
  afterAll(() => server?.close());

  for (const target of [
    'http://127.0.0.1:8080/hook',
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://localhost:8080/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::7f00:1]/hook',
    'http://192.168.1.10/hook',
  ]) {
    it(`refuses ${target} at submit with 422`, async () => {
      const key = await keyFor(server);
      const res = await key.submit({ file: photo(), operation: 'pencil-sketch', webhook: target });
      expect(res.status).toBe(422);
      const body = (await res.json()) as { code: string; message: string };
      expect(body.code).toBe('WEBHOOK_REFUSED');
      // Refused before anything was counted.
      const me = (await (await key.call('/api/me')).json()) as { usage: Record<string, { used: number }> };
      expect(me.usage['pencil-sketch']?.used).toBe(0);
    });
  }

  it('refuses a private target again at delivery (a name that resolves there now), without following redirects', async () => {
    const receiver = await startReceiver([302]);
    try {
      await expect(
        postWebhook(new URL(`http://localhost:${receiver.port}/hook`), {}, '{}', {
          timeoutMs: 5000,
          allowPrivate: false,
        }),
      ).rejects.toBeInstanceOf(WebhookTargetError);
      expect(receiver.received).toHaveLength(0);
      // Allowed, a redirect is an answer, not followed.
      const answer = await postWebhook(new URL(receiver.url), {}, '{}', { timeoutMs: 5000, allowPrivate: true });
      expect(answer.status).toBe(302);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});
