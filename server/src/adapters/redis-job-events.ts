import { Redis } from 'ioredis';
import { type JobChanges, LocalJobChanges } from './job-events.js';

/**
 * Job change notices across processes, over Redis pub/sub: every process publishes the changes it makes (a
 * worker's progress and outcomes, an API's cancel) on one channel, and each process passes the notices on to its
 * own watchers. Pub/sub keeps nothing: a notice missed while Redis was away is made up for by the status stream's
 * periodic re-read (routes/job-events.ts).
 */
export class RedisJobChanges implements JobChanges {
  private readonly local = new LocalJobChanges();
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly channel: string;
  private readonly ready: Promise<unknown>;

  constructor(url: string, prefix: string, onError: (err: unknown) => void = () => {}) {
    this.channel = `${prefix}:job-events`;
    this.publisher = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 1_000 });
    this.subscriber = new Redis(url, { maxRetriesPerRequest: null });
    for (const r of [this.publisher, this.subscriber]) r.on('error', () => {}); // ioredis reconnects by itself
    this.subscriber.on('message', (_channel: string, message: string) => {
      const id = Number(message);
      if (Number.isSafeInteger(id)) this.local.publish(id);
    });
    this.ready = this.subscriber.subscribe(this.channel).catch(onError);
  }

  /** Resolves once this process receives notices. */
  whenReady(): Promise<unknown> {
    return this.ready;
  }

  publish(jobId: number): void {
    this.publisher.publish(this.channel, String(jobId)).catch(() => {});
  }

  subscribe(jobId: number, listener: () => void): () => void {
    return this.local.subscribe(jobId, listener);
  }

  async close(): Promise<void> {
    await this.local.close();
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}
