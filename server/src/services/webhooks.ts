import { createHmac, randomUUID } from 'node:crypto';
import { AppError, type ImageJob, type WebhookDelivery } from '@ai-editor/core';
import { checkWebhookTarget, postWebhook, WebhookTargetError } from '../adapters/webhook-http.js';
import type { ImageRow, WebhookDeliveryRow } from '../db/schema.js';
import type { Logger } from '../logging.js';
import type { ApiKeyRepository } from '../repositories/api-keys.js';
import type { WebhookDeliveryRepository } from '../repositories/webhook-deliveries.js';
import type { JobService } from './jobs.js';

/**
 * After the first attempt fails, the next ones wait this long: 5 s, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h (the last
 * attempt about a day after the first), then the delivery is marked failed.
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 28_800_000, 28_800_000];
/** One attempt may take this long (connect, send, answer). */
const ATTEMPT_TIMEOUT_MS = 15_000;
/** A claimed attempt is the claimer's for this long; a process that died mid-attempt leaves it to the next. */
const LEASE_MS = 60_000;
/** How often every process looks for due retries. */
const POLL_MS = 2_000;
const BATCH = 10;

export type WebhookEvent = 'job.completed' | 'job.failed';

/** The Standard Webhooks signature header value of one attempt: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export interface WebhookServiceDeps {
  deliveries: WebhookDeliveryRepository;
  keys: ApiKeyRepository;
  /** The job as the API shows it: the message's data. */
  view(row: ImageRow): Promise<ImageJob>;
  /** WEBHOOK_ALLOW_PRIVATE: targets on loopback and private networks may be called (tests, closed networks). */
  allowPrivate: boolean;
  log: Logger;
  /** Only for tests of the schedule. */
  retryDelaysMs?: number[];
}

/**
 * Signed webhooks (Standard Webhooks) for jobs submitted with an API key: when such a job completes or fails, the
 * process that recorded the outcome stores the message and sends it; failed attempts are retried with backoff
 * for about a day by whichever process finds them due. Every attempt's outcome is kept for the owner to see.
 */
export class WebhookService {
  private timer: NodeJS.Timeout | undefined;
  private running = new Set<Promise<unknown>>();
  private readonly delays: number[];

  constructor(private readonly deps: WebhookServiceDeps) {
    this.delays = deps.retryDelaysMs ?? RETRY_DELAYS_MS;
  }

  /** At submit: the URL must resolve to public addresses only (422 otherwise), unless private ones are allowed. */
  async checkUrl(raw: string): Promise<void> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AppError('WEBHOOK_REFUSED', { reason: 'not a URL' });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new AppError('WEBHOOK_REFUSED', { reason: 'only http and https URLs' });
    }
    if (url.username || url.password) throw new AppError('WEBHOOK_REFUSED', { reason: 'no credentials in the URL' });
    if (this.deps.allowPrivate) return;
    try {
      await checkWebhookTarget(url);
    } catch (err) {
      if (err instanceof WebhookTargetError) throw new AppError('WEBHOOK_REFUSED', { reason: err.message });
      throw err;
    }
  }

  /** A job reached its outcome: if it asked for a webhook, the message is recorded and sent now. */
  async jobFinished(row: ImageRow): Promise<void> {
    if (!row.webhookUrl || row.apiKeyId === null) return;
    const event: WebhookEvent = row.status === 'completed' ? 'job.completed' : 'job.failed';
    const id = `msg_${randomUUID().replaceAll('-', '')}`;
    const payload = JSON.stringify({
      type: event,
      timestamp: new Date().toISOString(),
      data: await this.deps.view(row),
    });
    const created = await this.deps.deliveries.insert({
      id,
      imageId: row.id,
      apiKeyId: row.apiKeyId,
      event,
      url: row.webhookUrl,
      payload,
      nextAttemptAt: new Date(),
    });
    if (created) await this.track(this.sendDue(id));
  }

  /** The job's deliveries, for its owner. */
  async list(imageId: number): Promise<WebhookDelivery[]> {
    return (await this.deps.deliveries.forImage(imageId)).map((d) => ({
      id: d.id,
      event: d.event as WebhookEvent,
      url: d.url,
      status: d.status as WebhookDelivery['status'],
      attempts: d.attempts,
      lastStatusCode: d.lastStatusCode,
      lastError: d.lastError,
      nextAttemptAt: d.status === 'pending' ? (d.nextAttemptAt?.toISOString() ?? null) : null,
      createdAt: d.createdAt.toISOString(),
      deliveredAt: d.deliveredAt?.toISOString() ?? null,
    }));
  }

  /** Looks for due retries every few seconds (in every process: each attempt is claimed by one). */
  start(): void {
    this.timer ??= setInterval(() => {
      void this.track(this.sendDue());
    }, POLL_MS);
    this.timer.unref();
  }

  /** Stops looking and waits for the attempts under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.running]);
  }

  private track<T>(p: Promise<T>): Promise<T | undefined> {
    const guarded = p.catch((err) => {
      this.deps.log.error({ err }, 'webhook delivery failed');
      return undefined;
    });
    this.running.add(guarded);
    void guarded.finally(() => this.running.delete(guarded));
    return guarded;
  }

  private async sendDue(id?: string): Promise<void> {
    const claimed = await this.deps.deliveries.claim({ id, limit: id ? 1 : BATCH, leaseMs: LEASE_MS });
    await Promise.all(claimed.map((d) => this.attempt(d)));
  }

  private async attempt(d: WebhookDeliveryRow): Promise<void> {
    const secret = (await this.deps.keys.find(d.apiKeyId))?.webhookSecret;
    if (!secret) return this.deps.deliveries.attemptFailed(d.id, { statusCode: null, error: 'the API key is gone' });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': d.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(secret, d.id, timestamp, d.payload),
      'user-agent': 'AI-Editor-Webhooks/1',
    };
    let statusCode: number | null = null;
    let error: string;
    try {
      const res = await postWebhook(new URL(d.url), headers, d.payload, {
        timeoutMs: ATTEMPT_TIMEOUT_MS,
        allowPrivate: this.deps.allowPrivate,
      });
      statusCode = res.status;
      if (res.status >= 200 && res.status < 300) return this.deps.deliveries.delivered(d.id, res.status);
      error = res.status >= 300 && res.status < 400 ? `redirect (${res.status}) not followed` : `HTTP ${res.status}`;
    } catch (err) {
      error = err instanceof WebhookTargetError ? `refused: ${err.message}` : (err as Error).message || 'failed';
      if ((err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError') error = 'timed out';
    }
    // A refused target stays refused: no retries.
    const delay = error.startsWith('refused:') ? undefined : this.delays[d.attempts - 1];
    const retryAt = delay === undefined ? undefined : new Date(Date.now() + delay);
    this.deps.log.warn({ webhook: d.id, job: d.imageId, attempt: d.attempts, error }, 'webhook attempt failed');
    await this.deps.deliveries.attemptFailed(d.id, { statusCode, error, retryAt });
  }
}

/** Sends the webhook of every job this process finishes (in scale-out: the worker that ran it). */
export function watchJobsForWebhooks(jobs: JobService, webhooks: WebhookService, log: Logger): void {
  const send = (row: ImageRow) => {
    webhooks.jobFinished(row).catch((err) => log.error({ err, job: row.id }, 'could not record the webhook'));
  };
  jobs.events.on('completed', send);
  jobs.events.on('failed', send);
}
