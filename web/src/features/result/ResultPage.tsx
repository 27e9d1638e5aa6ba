import {
  errorMessage,
  extensionFor,
  getOperation,
  type ImageJob,
  LIMITS,
  NOTICES,
  type OperationId,
  resultFileName,
} from '@ai-editor/core';
import { AlertCircle, ArrowLeft, CheckCircle2, Download, Loader2, RotateCcw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Page } from '@/components/layout/Page';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { JobGone, jobGoneState } from '@/features/library/JobGone';
import { UseInTool } from '@/features/library/UseInTool';
import { errorToast } from '@/features/tool/errorToast';
import { jobPercent, stageLabel } from '@/features/tool/jobs';
import { CancelJobButton } from '@/features/tool/result/CancelJobButton';
import { ResultGallery, resultUrls } from '@/features/tool/result/ResultCard';
import { ResultView } from '@/features/tool/result/ResultView';
import { useDownload } from '@/features/tool/result/useDownload';
import { useAccess } from '@/features/tool/useAccess';
import { useJob } from '@/features/tool/useJob';
import { cn } from '@/lib/utils';

/** The result page's download name (docs/product.md#api-conventions): the tool and the job, with the extension of the answer's type. */
function downloadName(job: ImageJob, blob: Blob, index: number): string {
  return resultFileName(job.operation, job.id, index, extensionFor(blob.type));
}

/**
 * The result page (/result?id=…): polls the job every 1000 ms while it is pending (docs/product.md#flows), then shows the
 * processed image with a download, or the failure.
 */
export default function ResultPage() {
  const [search] = useSearchParams();
  const id = search.get('id');
  // A malformed id is asked for all the same: the server's refusal is what the page reports.
  const jobId = id ? Number(id) : null;
  // Pushed by the server while it runs; polled every 1000 ms only when the stream is not available.
  const { data: job, error } = useJob(jobId, LIMITS.pollIntervalResultMs);

  // A job that is gone (deleted, unknown, someone else's, expired) or cancelled is said in words, not as a failure.
  const gone = jobGoneState(job, error);
  useEffect(() => {
    if (error && !gone) errorToast('IMAGE_LOAD_FAILED');
  }, [error, gone]);

  return (
    <Page title="Your Result">
      {!id ? (
        <Card data-testid="result-empty">
          <CardHeader>
            <CardTitle as="h2">No image selected</CardTitle>
            <CardDescription>Open this page from a tool to see a result.</CardDescription>
          </CardHeader>
        </Card>
      ) : gone ? (
        <JobGone state={gone} operation={job?.operation} actions={gone === 'cancelled' && <TryAgain job={job} />} />
      ) : error ? null : !job ? (
        <PendingCard />
      ) : (
        <JobCard job={job} />
      )}
      {!gone && (
        <Button asChild variant="outline" className="mt-6">
          <Link to="/">
            <ArrowLeft aria-hidden /> Back to Home
          </Link>
        </Button>
      )}
    </Page>
  );
}

/** A cancelled job's way on: its tool, on the same photo and settings (the tool page reads them from the job). */
function TryAgain({ job }: { job?: ImageJob }) {
  const op = job && getOperation(job.operation);
  if (!op || !job) return null;
  return (
    <Button asChild>
      <Link to={`${op.route}?job=${job.id}`} data-testid="result-try-again">
        <RotateCcw aria-hidden /> Try again in {op.name}
      </Link>
    </Button>
  );
}

function PendingCard({ job }: { job?: ImageJob }) {
  const real = jobPercent(job);
  const percent = real ?? LIMITS.pendingProgressPercent;
  return (
    <Card data-testid="result-pending">
      <CardContent className="space-y-4 pt-6">
        <Skeleton className="aspect-square w-full max-h-96" />
        <div className="space-y-2" role="status" aria-live="polite">
          <div className="flex items-center justify-between text-sm">
            <span className="flex items-center gap-2 font-medium">
              <Loader2 className="h-4 w-4 animate-spin text-primary" aria-hidden /> Enhancing your image...
            </span>
            <span className="tabular-nums text-muted-foreground" data-testid="result-percent">
              {percent}%
            </span>
          </div>
          <Progress value={percent} />
          {job && real !== undefined && <p className="text-sm text-muted-foreground">{stageLabel(job)}</p>}
        </div>
        {job && <CancelJobButton jobId={job.id} />}
      </CardContent>
    </Card>
  );
}

function JobCard({ job }: { job: ImageJob }) {
  const access = useAccess(job.operation as OperationId);
  const [selected, setSelected] = useState(0);
  const { offered, downloading, download } = useDownload({
    canDownload: access.canDownload,
    failure: 'RESULT_DOWNLOAD_FAILED',
    onSaved: () => toast({ title: NOTICES.DOWNLOAD_SUCCESS.title, description: NOTICES.DOWNLOAD_SUCCESS.message }),
  });
  const operation = getOperation(job.operation);
  const name = operation?.name ?? job.operation;
  if (job.status === 'pending') return <PendingCard job={job} />;

  if (job.status === 'failed') {
    return (
      <Card data-testid="result-failed" className="border-destructive/50">
        <CardHeader className="items-center text-center">
          <AlertCircle className="h-12 w-12 text-destructive" aria-label="Failed" />
          <CardTitle as="h2">{errorMessage('RESULT_PAGE_FAILED')}</CardTitle>
          <CardDescription data-testid="result-error">
            {job.metadata.error || errorMessage('UNKNOWN_ERROR')}
          </CardDescription>
          <p className="text-sm text-muted-foreground">{name}</p>
        </CardHeader>
        {/* No dead end: the tool is one click away to try again. */}
        {operation && (
          <CardFooter className="justify-center">
            <Button asChild variant="outline">
              <Link to={`${operation.route}?job=${job.id}`} data-testid="result-try-again">
                <RotateCcw aria-hidden /> Try again in {name}
              </Link>
            </Button>
          </CardFooter>
        )}
      </Card>
    );
  }

  const urls = resultUrls(job);
  const index = Math.min(selected, Math.max(0, urls.length - 1));
  const shown = urls[index];
  const onDownload = () => {
    if (!shown) {
      errorToast('RESULT_NOT_READY');
      return;
    }
    void download(job.downloadUrls?.[index] ?? shown, (blob) => downloadName(job, blob, index));
  };

  const preview = shown ?? job.originalUrl;
  const label = urls.length > 1 ? `${name} result ${index + 1} of ${urls.length}` : `${name} result`;
  return (
    <Card data-testid="result-completed">
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <CheckCircle2 className="h-5 w-5 text-green-600" aria-hidden /> {name}
        </CardTitle>
        <CardDescription>
          Status: <span data-testid="result-status">{job.status}</span>
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {preview && (
          <ResultView
            beforeUrl={shown ? job.originalUrl : null}
            afterUrl={preview}
            alt={shown ? label : 'Your original photo'}
          />
        )}
        <ResultGallery urls={urls} selected={index} onSelect={setSelected} />
      </CardContent>
      <CardFooter className="flex flex-wrap gap-3">
        {offered && (
          <Button onClick={onDownload} disabled={downloading}>
            {downloading ? <Loader2 className="animate-spin" aria-hidden /> : <Download aria-hidden />} Download
          </Button>
        )}
        {shown && <UseInTool jobId={job.id} index={index} exclude={job.operation} />}
      </CardFooter>
    </Card>
  );
}
