import type { ImageJob } from '@ai-editor/core';
import { Loader2 } from 'lucide-react';
import { Progress } from '@/components/ui/progress';
import { jobPercent, stageLabel } from '../jobs';

/**
 * The 'Processing your request...' indicator (docs/product.md#pages), with what the server really reports: the stage, the percentage
 * where the engine knows it, and the place in the queue while waiting.
 */
export function JobProgress({ job }: { job: ImageJob | undefined }) {
  const percent = jobPercent(job);
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
      <Progress value={percent} />
    </div>
  );
}
