/**
 * The job queue. Embedded: an in-process FIFO that hands job ids to a handler with bounded concurrency; the scale-out
 * implementation (BullMQ) fills the same interface. The database stays the source of truth: a queue only orders work.
 */
export interface JobQueue {
  readonly kind: string;
  enqueue(jobId: number): Promise<void>;
  /** Takes a waiting job out of the queue (it was cancelled); a job already running is not affected. */
  remove(jobId: number): Promise<void>;
  /** 1 for the next job to start; undefined once it has started (or when unknown). */
  position(jobId: number): Promise<number | undefined>;
  stats(): Promise<QueueStats>;
  ping(): Promise<boolean>;
  /** Stops taking new jobs and waits for the running ones. */
  close(): Promise<void>;
}

/** Queue figures for /api/health; the fields after `active` are the scale-out queue's. */
export interface QueueStats {
  waiting: number;
  active: number;
  /** Jobs waiting to be retried after their worker stopped. */
  retrying?: number;
  /** Worker processes connected to the queue. */
  workerProcesses?: number;
  /** Waiting and active jobs per operation. */
  operations?: Record<string, { waiting: number; active: number }>;
  /** Per-operation counts cover only this many waiting jobs. */
  operationsCountedOver?: number;
  /** Redis did not answer. */
  unavailable?: boolean;
}

export type JobHandler = (jobId: number) => Promise<void>;

export class InProcessQueue implements JobQueue {
  readonly kind = 'in-process';
  private readonly waiting: number[] = [];
  private readonly active = new Set<number>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly handler: JobHandler,
    private readonly concurrency: number,
  ) {}

  async enqueue(jobId: number): Promise<void> {
    if (this.closed || this.active.has(jobId) || this.waiting.includes(jobId)) return;
    this.waiting.push(jobId);
    this.pump();
  }

  async remove(jobId: number): Promise<void> {
    const i = this.waiting.indexOf(jobId);
    if (i >= 0) this.waiting.splice(i, 1);
  }

  async position(jobId: number): Promise<number | undefined> {
    const i = this.waiting.indexOf(jobId);
    return i < 0 ? undefined : i + 1;
  }

  async stats() {
    return { waiting: this.waiting.length, active: this.active.size };
  }

  async ping() {
    return !this.closed;
  }

  private pump(): void {
    while (!this.closed && this.active.size < this.concurrency && this.waiting.length > 0) {
      const id = this.waiting.shift() as number;
      this.active.add(id);
      const done = this.handler(id)
        .catch(() => {}) // the handler records failures on the job itself
        .finally(() => {
          this.active.delete(id);
          this.running.delete(done);
          this.pump();
        });
      this.running.add(done);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiting.length = 0;
    await Promise.all(this.running);
  }
}
