/** API keys and webhooks in a scale-out deployment: two API processes, one worker process, PostgreSQL and Redis. */
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { authTestEnv, emulatorReady, mintUser } from '../support/auth.js';
import {
  createTestDatabase,
  redisUrl,
  skipReason,
  startWorker,
  uniquePrefix,
  visitor,
  type WorkerChild,
  waitUntil,
} from './support.js';

const photo = fs.readFileSync(path.resolve(import.meta.dirname, '../../../fixtures/chelsea.png'));

describe.skipIf(skipReason)('API keys and webhooks across processes', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-keys-scale-'));
  const apis: App[] = [];
  const bases: string[] = [];
  let worker: WorkerChild;
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end();
    });
  });

  beforeAll(async () => {
    await emulatorReady();
    db = await createTestDatabase();
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: uniquePrefix(),
      DATA_DIR: dataDir,
      WORKER_THREADS: '1',
      ENGINE_PRELOAD: 'false',
      INFERENCE_THREADS: '1',
      SLOW_ENGINE_MS: '200',
      LOG_LEVEL: 'error',
      // The webhook receiver of this test runs on this machine.
      WEBHOOK_ALLOW_PRIVATE: 'true',
      ...authTestEnv(),
    };
    worker = await startWorker(env);
    for (let i = 0; i < 2; i++) {
      const api = await buildApp({ config: loadConfig(env) });
      apis.push(api);
      bases.push(await api.app.listen({ port: 0, host: '127.0.0.1' }));
    }
  }, 600_000);
  afterAll(async () => {
    await worker?.stop();
    for (const api of apis) await api.close();
    receiver.close();
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a key made on one API process works on the other; the worker that ran the job sends its webhook', async () => {
    const [a, b] = bases as [string, string];
    const user = await mintUser();
    const browser = visitor(() => a);
    expect(
      (
        await browser.fetch('/api/session', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ idToken: user.idToken }),
        })
      ).status,
    ).toBe(200);
    const created = (await (
      await browser.fetch('/api/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'scale-out' }),
      })
    ).json()) as { id: number; key: string; webhookSecret: string };
    const auth = { authorization: `Bearer ${created.key}` };

    const form = new FormData();
    form.append('operation', 'face-enhancement');
    form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/png' }));
    form.append('webhook', `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
    const res = await fetch(`${b}/api/images`, { method: 'POST', body: form, headers: auth });
    expect(res.status, await res.clone().text()).toBe(201);
    const job = (await res.json()) as { id: number };

    await waitUntil('the webhook', async () => received.length > 0);
    const hook = received[0];
    const payload = new Webhook(created.webhookSecret).verify(hook?.body ?? '', {
      'webhook-id': String(hook?.headers['webhook-id']),
      'webhook-timestamp': String(hook?.headers['webhook-timestamp']),
      'webhook-signature': String(hook?.headers['webhook-signature']),
    }) as { type: string; data: { id: number; status: string } };
    expect(payload).toMatchObject({ type: 'job.completed', data: { id: job.id, status: 'completed' } });
    // The API processes run no engines: only the worker recorded the outcome, so only it could have sent this.
    expect(apis.every((api) => api.pool === undefined)).toBe(true);
    const deliveries = await waitUntil('the delivery recorded', async () => {
      const list = (await (await fetch(`${a}/api/images/${job.id}/webhooks`, { headers: auth })).json()) as {
        deliveries: { status: string }[];
      };
      return list.deliveries[0]?.status === 'delivered' && list.deliveries;
    });
    expect(deliveries).toHaveLength(1);

    // lastUsedAt is in the shared database: process A sees the use made on B.
    const keys = (await (await browser.fetch('/api/keys')).json()) as { keys: { lastUsedAt: string | null }[] };
    expect(keys.keys[0]?.lastUsedAt).not.toBeNull();

    // Revoked on A, refused on B at once.
    expect((await browser.fetch(`/api/keys/${created.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(`${b}/api/me`, { headers: auth })).status).toBe(401);
  }, 300_000);
});
