import { EventEmitter } from 'node:events';

/**
 * "Job N changed": told after a job's row was written (started, progress, completed, failed, cancelled), so that
 * whoever watches the job (the status stream, GET /api/images/:id/events) reads it again and passes it on. A
 * notice carries only the id: the row stays the one source of truth, and a reader checks who may see it.
 *
 * Embedded, everything happens in one process (`LocalJobChanges`); in scale-out the worker processes learn the
 * changes and the API processes stream them, so the notices travel through Redis (redis-job-events.ts).
 */
export interface JobChanges {
  publish(jobId: number): void;
  /** Calls `listener` at each change of the job until the returned function is called. */
  subscribe(jobId: number, listener: () => void): () => void;
  close(): Promise<void>;
}

/** In-process notices: the embedded mode, and the delivery half of the Redis adapter. */
export class LocalJobChanges implements JobChanges {
  private readonly emitter = new EventEmitter();

  constructor() {
    // One listener per open stream: many visitors may watch at once.
    this.emitter.setMaxListeners(0);
  }

  publish(jobId: number): void {
    this.emitter.emit(String(jobId));
  }

  subscribe(jobId: number, listener: () => void): () => void {
    const name = String(jobId);
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }

  /** How many streams watch this job (for tests and health). */
  listeners(jobId: number): number {
    return this.emitter.listenerCount(String(jobId));
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
