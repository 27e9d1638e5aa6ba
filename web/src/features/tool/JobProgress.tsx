import { Loader2 } from 'lucide-react';
import { type ImageJob, stageLabel } from './jobs';

/**
 * SPEC §2's 'Processing your request...' indicator, with what the server really reports: the stage, the percentage
 * where the engine knows it, and the place in the queue while waiting.
 */
export function JobProgress({ job }: { job: ImageJob | undefined }) {
  const percent = typeof job?.metadata.percent === 'number' ? Math.round(job.metadata.percent) : undefined;
  const stage = job ? stageLabel(job) : 'Uploading';
  return (
    <div
      className="space-y-3 rounded-lg border bg-card p-6"
      role="status"
      aria-live="polite"
      data-testid="job-progress"
    >
      <div className="flex items-center gap-3">
        <Loader2 className="h-5 w-5 animate-spin text-primary" aria-hidden />
        <p className="font-medium">Processing your request...</p>
      </div>
      <div className="flex items-center justify-between text-sm text-muted-foreground">
        <span data-testid="job-stage">{stage}</span>
        {percent !== undefined && <span data-testid="job-percent">{percent}%</span>}
      </div>
      <div
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-label="Progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        {percent !== undefined ? (
          <div className="h-full bg-primary transition-[width] duration-500" style={{ width: `${percent}%` }} />
        ) : (
          <div className="h-full w-1/3 animate-pulse rounded-full bg-primary/60" />
        )}
      </div>
    </div>
  );
}
