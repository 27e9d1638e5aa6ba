import type { JobChanges } from '../adapters/job-events.js';
import type { ImageRow } from '../db/schema.js';
import type { Logger } from '../logging.js';
import { imageView } from './job-view.js';
import type { JobService } from './jobs.js';

/** What each watcher of a job is handed at each change: the row, and its view as JSON (GET /api/images/:id). */
export type JobSeen = (row: ImageRow | undefined, view: string | undefined) => void;

export interface JobWatchDeps {
  jobs: JobService;
  changes: JobChanges;
  log: Logger;
  /** A watched job is read again this often even without a notice (queue position; a notice lost with Redis). */
  refreshMs: number;
}

interface Watched {
  watchers: Set<JobSeen>;
  unsubscribe: () => void;
  refresh: NodeJS.Timeout;
  reading: boolean;
  again: boolean;
}

/**
 * The jobs the open status streams watch. However many streams watch a job, its row is read once per change
 * notice (one read at a time, the last notice wins) and its view made once, then handed to every watcher.
 */
export class JobWatch {
  private readonly watched = new Map<number, Watched>();

  constructor(private readonly deps: JobWatchDeps) {}

  /** Hands `seen` the job now and at each change until the returned function is called. */
  watch(id: number, seen: JobSeen): () => void {
    let job = this.watched.get(id);
    if (!job) {
      // Listening before the first read: a change between the two is not missed.
      const unsubscribe = this.deps.changes.subscribe(id, () => void this.read(id));
      const refresh = setInterval(() => void this.read(id), this.deps.refreshMs);
      job = { watchers: new Set(), unsubscribe, refresh, reading: false, again: false };
      this.watched.set(id, job);
    }
    job.watchers.add(seen);
    void this.read(id);
    return () => this.unwatch(id, seen);
  }

  private unwatch(id: number, seen: JobSeen): void {
    const job = this.watched.get(id);
    if (!job?.watchers.delete(seen) || job.watchers.size > 0) return;
    job.unsubscribe();
    clearInterval(job.refresh);
    this.watched.delete(id);
  }

  private async read(id: number): Promise<void> {
    const job = this.watched.get(id);
    if (!job) return;
    if (job.reading) {
      job.again = true;
      return;
    }
    job.reading = true;
    try {
      do {
        job.again = false;
        const row = await this.deps.jobs.find(id);
        const view = row && JSON.stringify(await imageView(row, this.deps.jobs));
        for (const seen of [...job.watchers]) seen(row, view);
      } while (job.again && this.watched.get(id) === job);
    } catch (err) {
      this.deps.log.warn({ err, job: id }, 'status stream read failed');
    } finally {
      job.reading = false;
    }
  }
}
