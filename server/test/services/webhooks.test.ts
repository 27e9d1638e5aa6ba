/**
 * WebhookService over mocked repositories (vi.fn()): which webhook URLs a submission may name, and that only a job
 * submitted with an API key and a webhook records a delivery, and when a failed attempt is tried again. The sending
 * itself is tested against the real server (test/api/webhooks.test.ts).
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError, errorMessage } from '@ai-editor/core';
import { describe, expect, it, vi } from 'vitest';
import type { ImageRow } from '../../src/db/schema.js';
import type { Logger } from '../../src/logging.js';
import type { ApiKeyRepository } from '../../src/repositories/api-keys.js';
import type { WebhookDeliveryRepository } from '../../src/repositories/webhook-deliveries.js';
import { RETRY_DELAYS_MS, signWebhook, WebhookService } from '../../src/services/webhooks.js';

function setUp(allowPrivate = false) {
  const deliveries = { insert: vi.fn(async () => false) };
  const service = new WebhookService({
    deliveries: deliveries as unknown as WebhookDeliveryRepository,
    keys: {} as ApiKeyRepository,
    view: async (row) => ({ id: row.id }) as never,
    allowPrivate,
    log: { error: vi.fn() } as unknown as Logger,
  });
  return { service, deliveries };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err) => (err instanceof AppError ? err.message : err),
  );

describe('WebhookService', () => {
  it('refuses a URL that is not http(s), carries credentials or leads to a private address, saying why', async () => {
    const { service } = setUp();
    const refused = (reason: string) => errorMessage('WEBHOOK_REFUSED', { reason });
    expect(await refusal(service.checkUrl('not a url'))).toBe(refused('not a URL'));
    expect(await refusal(service.checkUrl('ftp://example.com/hook'))).toBe(refused('only http and https URLs'));
    expect(await refusal(service.checkUrl('https://me:secret@example.com/hook'))).toBe(
      refused('no credentials in the URL'),
    );
    expect(await refusal(service.checkUrl('http://127.0.0.1:8080/hook'))).toBe(
      refused('127.0.0.1 is a loopback address'),
    );
    expect(await refusal(service.checkUrl('http://169.254.169.254/latest'))).toBe(
      refused('169.254.169.254 is a linkLocal address'),
    );
    // WEBHOOK_ALLOW_PRIVATE: a closed network's own receiver is fine.
    await expect(setUp(true).service.checkUrl('http://127.0.0.1:8080/hook')).resolves.toBeUndefined();
  });

  it('records a delivery only for a job submitted with an API key and a webhook', async () => {
    const { service, deliveries } = setUp(true);
    const row = { id: 5, status: 'completed', webhookUrl: null, apiKeyId: 3 } as ImageRow;
    await service.jobFinished(row);
    await service.jobFinished({ ...row, webhookUrl: 'http://127.0.0.1/hook', apiKeyId: null });
    expect(deliveries.insert).not.toHaveBeenCalled();
    await service.jobFinished({ ...row, status: 'failed', webhookUrl: 'http://127.0.0.1/hook' });
    expect(deliveries.insert).toHaveBeenCalledWith(
      expect.objectContaining({ imageId: 5, apiKeyId: 3, event: 'job.failed', url: 'http://127.0.0.1/hook' }),
    );
  });

  it('signs as the Standard Webhooks specification does (its published example)', () => {
    expect(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('tries a failed delivery again after 5 s, 5 min, 30 min, 2 h, 5 h, 8 h and 8 h, then marks it failed', async () => {
    const hours = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(hours).toBeGreaterThan(23);
    expect(hours).toBeLessThan(25);
    // A receiver that always answers 500.
    const receiver = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(500).end()));
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      let attempts = 0;
      const row = { id: 'msg_1', imageId: 5, apiKeyId: 3, url, payload: '{}' };
      // Each claim is the next attempt of the same delivery, as the repository counts them.
      const deliveries = {
        insert: vi.fn(async () => true),
        claim: vi.fn(async () => [{ ...row, attempts: ++attempts }]),
        attemptFailed: vi.fn(async () => {}),
      };
      const service = new WebhookService({
        deliveries: deliveries as unknown as WebhookDeliveryRepository,
        keys: { find: async () => ({ webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }) } as never,
        view: async (r) => ({ id: r.id }) as never,
        allowPrivate: true,
        log: { error: vi.fn(), warn: vi.fn() } as unknown as Logger,
      });
      const job = { id: 5, status: 'completed', webhookUrl: url, apiKeyId: 3 } as ImageRow;
      const waits: (number | undefined)[] = [];
      for (let i = 0; i <= RETRY_DELAYS_MS.length; i++) {
        const before = Date.now();
        await service.jobFinished(job);
        const [, result] = deliveries.attemptFailed.mock.calls.at(-1) as unknown as [string, { retryAt?: Date }];
        waits.push(result.retryAt && Math.round((result.retryAt.getTime() - before) / 1000));
      }
      expect(deliveries.attemptFailed).toHaveBeenCalledTimes(8);
      expect(deliveries.attemptFailed).toHaveBeenLastCalledWith('msg_1', { statusCode: 500, error: 'HTTP 500' });
      expect(waits).toEqual([5, 300, 1800, 7200, 18_000, 28_800, 28_800, undefined]);
    } finally {
      receiver.close();
    }
  });
});
