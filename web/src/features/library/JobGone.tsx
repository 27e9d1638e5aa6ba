import { ERRORS, errorMessage, getOperation, type ImageJob, LIMITS } from '@ai-editor/core';
import { ArrowLeft, Ban, ImageOff } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { ToolError } from '@/features/tool/jobs';
import { useServerConfig } from '@/lib/server';
import { cn } from '@/lib/utils';

/** Why a job page cannot show its job: gone (deleted, unknown or someone else's), its files expired, or cancelled. */
export type JobGoneState = 'not-available' | 'expired' | 'cancelled';

/**
 * What a job page (the result page, a tool page's `?job=`, an editor step) says instead of the job, from the job
 * as the server shows it or from the failed read: undefined while there is a job to show (or it is still loading,
 * or the read failed for a reason the page reports itself).
 */
export function jobGoneState(job: ImageJob | undefined, error: unknown): JobGoneState | undefined {
  if (error instanceof ToolError && error.status === 404) return 'not-available';
  if (error instanceof ToolError && error.status === 410) return 'expired';
  if (!job) return undefined;
  if (job.status === 'failed' && job.metadata.errorCode === 'CANCELLED') return 'cancelled';
  if (job.status === 'completed' && (job.metadata.expired || !job.processedUrl)) return 'expired';
  return undefined;
}

/** The words for a state, with this server's retention (`GET /api/config`, RETENTION_HOURS). */
export function useJobGoneText(state: JobGoneState): { title: string; text: string } {
  const { data: config } = useServerConfig();
  const hours = config?.limits?.retentionHours ?? LIMITS.retentionHours;
  const retention = hours === 1 ? '1 hour' : `${hours} hours`;
  switch (state) {
    case 'cancelled':
      return { title: ERRORS.JOB_CANCELLED.title, text: errorMessage('JOB_CANCELLED') };
    case 'expired':
      return { title: 'No longer available', text: errorMessage('JOB_EXPIRED', { retention }) };
    case 'not-available':
      return { title: 'No longer available', text: errorMessage('JOB_NOT_AVAILABLE', { retention }) };
  }
}

/**
 * A job page's account of a job it cannot show, in words, with a way on: the job's tool when it is known, the
 * home page, and any `actions` of the page's own.
 */
export function JobGone({
  state,
  operation,
  actions,
  className,
}: {
  state: JobGoneState;
  /** The job's operation, when the server still told it. */
  operation?: string;
  actions?: ReactNode;
  className?: string;
}) {
  const { title, text } = useJobGoneText(state);
  const op = operation ? getOperation(operation) : undefined;
  const Icon = state === 'cancelled' ? Ban : ImageOff;
  return (
    <section
      aria-labelledby="job-gone-title"
      className={cn('rounded-lg border bg-card p-6 text-center shadow-sm', className)}
      data-testid="job-gone"
      data-state={state}
    >
      <Icon className="mx-auto h-10 w-10 text-muted-foreground" aria-hidden />
      <h2 id="job-gone-title" className="mt-3 text-xl font-semibold">
        {title}
      </h2>
      <p className="mx-auto mt-2 max-w-prose text-muted-foreground" role="status">
        {text}
      </p>
      <div className="mt-4 flex flex-wrap justify-center gap-3">
        {actions}
        {op && !actions && (
          <Button asChild>
            <Link to={op.route}>Open {op.name}</Link>
          </Button>
        )}
        <Button asChild variant="outline">
          <Link to="/">
            <ArrowLeft aria-hidden /> Back to Home
          </Link>
        </Button>
      </div>
    </section>
  );
}
