/**
 * WebhookService over mocked repositories (vi.fn()): which webhook URLs a submission may name, and that only a job
 * submitted with an API key and a webhook records a delivery. The sending itself is tested over HTTP
 * (test/api/webhooks.test.ts).
 */
import { AppError, errorMessage } from '@ai-editor/core';
import { describe, expect, it, vi } from 'vitest';
import type { ImageRow } from '../../src/db/schema.js';
import type { Logger } from '../../src/logging.js';
import type { ApiKeyRepository } from '../../src/repositories/api-keys.js';
import type { WebhookDeliveryRepository } from '../../src/repositories/webhook-deliveries.js';
import { signWebhook, WebhookService } from '../../src/services/webhooks.js';

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
});
