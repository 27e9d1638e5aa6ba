import {
  errorMessage,
  errorTitle,
  type ImageJob,
  LIMITS,
  type Operation,
  type Params,
  type ParamValue,
} from '@ai-editor/core';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Download, FileArchive, Loader2, Wand2, X, XCircle } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { UsageNotice } from '@/features/auth/UsageNotice';
import { queries } from '@/lib/queries';
import { cn } from '@/lib/utils';
import { errorToast, failureToast } from '../errorToast';
import { jobPercent, newIdempotencyKey, stageLabel, submitJob, ToolError } from '../jobs';
import { CHECKERBOARD } from '../result/ResultCard';
import { useDownload } from '../result/useDownload';
import { useAccess } from '../useAccess';
import { useIsRunning, useJobStreams } from '../useJob';
import { useLimits } from '../useLimits';
import { batchFileNames, zipResults } from './batch';
import { ParamControls } from './ParamControls';
import { useObjectUrl } from './UploadArea';
import { checkImageFile, checkOutput, checkParams } from './validate';

/** One photo of the batch: before it is sent, refused (with the message), or its job. */
interface Item {
  file: File;
  jobId?: number;
  refused?: string;
}

const DAILY_LIMIT_TITLE = errorTitle('DAILY_LIMIT_REACHED');

/**
 * Several photos through one tool with the same settings: each photo is its own job and its own use of the daily
 * allowance (photos beyond what is left today are refused before anything is sent, with the 'Daily Limit Reached'
 * toast), one progress grid, each result downloadable and all of them as one zip.
 */
export function BatchPanel({
  op,
  files,
  params: initialParams,
  onExit,
}: {
  op: Operation;
  files: File[];
  params: Params;
  /** Back to one photo. */
  onExit(): void;
}) {
  const queryClient = useQueryClient();
  const access = useAccess(op.id);
  const { maxBytes, maxOutputPixels } = useLimits();
  const [params, setParams] = useState(initialParams);
  // Photos the browser can already refuse (type, size) are marked at once and never sent.
  const [items, setItems] = useState<Item[]>(() =>
    files.map((file) => {
      const code = checkImageFile(file, maxBytes);
      return code ? { file, refused: errorMessage(code) } : { file };
    }),
  );
  const [submitting, setSubmitting] = useState(false);
  const [started, setStarted] = useState(false);
  const names = batchFileNames(op, files);

  // Pushed by the server while they run (a few streams at once); the others, and any whose stream fails, polled.
  const polled = useJobStreams(
    items.flatMap((i) => (i.jobId === undefined ? [] : [i.jobId])),
    useIsRunning(),
  );
  const jobs = useQueries({
    queries: items.map((item) => ({
      ...queries.job(item.jobId ?? 0),
      enabled: item.jobId !== undefined,
      refetchInterval: (q: { state: { data?: ImageJob } }) =>
        q.state.data?.status === 'pending' && item.jobId !== undefined && polled.has(item.jobId)
          ? LIMITS.pollIntervalToolMs
          : false,
    })),
  }).map((q) => q.data);

  const completed = items
    .map((item, i) => ({ item, job: jobs[i], name: names[i] as string }))
    .filter((x) => x.item.jobId !== undefined && x.job?.status === 'completed' && x.job.processedUrl);
  const sent = items.filter((i) => i.jobId !== undefined).length;
  const ended = items.filter((i, n) => i.jobId !== undefined && jobs[n]?.status !== 'pending' && jobs[n]).length;
  const running = submitting || ended < sent;

  // Only as many photos as uses left today are offered (null: not counted); the page says so before the click.
  const sendable = items.filter((i) => !i.refused && i.jobId === undefined).length;
  const usesLeft = access.usage?.left ?? null;
  const offered = usesLeft === null ? sendable : Math.min(sendable, usesLeft);

  const setItem = (index: number, patch: Partial<Item>) =>
    setItems((list) => list.map((it, i) => (i === index ? { ...it, ...patch } : it)));

  const start = async () => {
    if (!access.canUse) {
      errorToast(access.reason ?? 'FEATURE_RESTRICTED');
      return;
    }
    let checked: Params;
    try {
      checked = checkParams(op, params);
    } catch (err) {
      failureToast(err);
      return;
    }
    setStarted(true);
    setSubmitting(true);
    // What is left today (null: not counted, e.g. a guest on the guest tool); the server stays the authority.
    let left = access.usage?.left ?? null;
    let firstError: ToolError | undefined;
    for (const [index, item] of items.entries()) {
      if (item.refused || item.jobId !== undefined) continue;
      if (left !== null && left <= 0) {
        firstError ??= ToolError.of('DAILY_LIMIT_REACHED');
        setItem(index, { refused: errorMessage('DAILY_LIMIT_REACHED') });
        continue;
      }
      try {
        await checkOutput(op, checked, item.file, maxOutputPixels);
        // One key per photo: a retried request for it makes no second job.
        const created = await submitJob(op, { file: item.file, params: checked, idempotencyKey: newIdempotencyKey() });
        queryClient.setQueryData(queries.job(created.id).queryKey, created);
        setItem(index, { jobId: created.id });
        access.onUsed?.();
        if (left !== null) left--;
      } catch (err) {
        const e = ToolError.from(err);
        firstError ??= e;
        setItem(index, { refused: e.message });
        // Refused for today: the photos after it would be refused too, so they are not sent.
        if (e.title === DAILY_LIMIT_TITLE) left = 0;
      }
    }
    setSubmitting(false);
    // One toast is visible at a time: the first refusal speaks for the batch; each photo shows its own.
    if (firstError) failureToast(firstError);
  };

  const zip = useDownload({ canDownload: access.canDownload, failure: 'DOWNLOAD_FAILED' });
  const downloadZip = () =>
    zip.download(
      () =>
        zipResults(
          completed.map(({ job, name }) => ({ name, url: job?.downloadUrls?.[0] ?? (job?.processedUrl as string) })),
        ),
      () => `${op.id}-results.zip`,
    );

  return (
    <Card data-testid="batch-panel">
      <CardHeader>
        <CardTitle as="h2">Your photos ({files.length})</CardTitle>
        <CardDescription>
          Each photo is processed on its own, with the same settings, and counts as one use of this tool.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <UsageNotice operation={op.id} />
        {!started && (
          <ParamControls
            defs={op.params}
            values={params}
            onChange={(name: string, value: ParamValue) => setParams((p) => ({ ...p, [name]: value }))}
            disabled={submitting}
          />
        )}
        <p className="text-sm text-muted-foreground" role="status" aria-live="polite" data-testid="batch-summary">
          {started
            ? `${completed.length} of ${files.length} done${running ? ', working…' : '.'}`
            : `${files.length} photos ready.`}
        </p>
        {!started && usesLeft !== null && offered < sendable && (
          <p
            id="batch-limit-reason"
            className="text-sm font-medium text-destructive"
            role="note"
            data-testid="batch-limit"
          >
            {usesLeft === 0
              ? 'No uses of this tool are left today, so none of these photos can be processed.'
              : `${usesLeft} use${usesLeft === 1 ? '' : 's'} of this tool left today: the first ${offered} photo${offered === 1 ? '' : 's'} will be processed, the other${sendable - offered === 1 ? '' : 's'} not sent.`}
          </p>
        )}
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label="Photos in this batch">
          {items.map((item, i) => (
            <BatchTile
              key={`${item.file.name}-${i}`}
              op={op}
              item={item}
              job={jobs[i]}
              name={names[i] as string}
              canDownload={access.canDownload}
            />
          ))}
        </ul>
      </CardContent>
      <CardFooter className="flex flex-wrap gap-3">
        {!started ? (
          <Button
            size="lg"
            onClick={start}
            disabled={submitting || offered === 0}
            aria-describedby={offered < sendable ? 'batch-limit-reason' : undefined}
            data-testid="batch-start"
          >
            {submitting ? <Loader2 className="animate-spin" aria-hidden /> : <Wand2 aria-hidden />}
            Process {offered} image{offered === 1 ? '' : 's'}
          </Button>
        ) : (
          zip.offered && (
            <Button
              onClick={downloadZip}
              disabled={running || completed.length === 0 || zip.downloading}
              data-testid="batch-zip"
            >
              {zip.downloading ? <Loader2 className="animate-spin" aria-hidden /> : <FileArchive aria-hidden />}
              Download all ({completed.length}) as ZIP
            </Button>
          )
        )}
        <Button variant="outline" onClick={onExit} disabled={submitting}>
          <X aria-hidden /> {started ? 'Start over' : 'Cancel'}
        </Button>
      </CardFooter>
    </Card>
  );
}

/** One photo's place in the grid: its thumbnail, then its progress, then its result with a Download button. */
function BatchTile({
  op,
  item,
  job,
  name,
  canDownload,
}: {
  op: Operation;
  item: Item;
  job?: ImageJob;
  name: string;
  canDownload: boolean;
}) {
  const before = useObjectUrl(item.file);
  const { offered, downloading, download } = useDownload({ canDownload, failure: 'DOWNLOAD_FAILED' });
  const result = job?.status === 'completed' ? job.processedUrl : null;
  const failed =
    item.refused ?? (job?.status === 'failed' ? job.metadata.error || errorMessage('PROCESSING_FAILED') : undefined);
  const percent = jobPercent(job);
  return (
    <li
      className="flex flex-col gap-2 rounded-lg border p-2"
      data-testid="batch-item"
      data-state={result ? 'done' : failed ? 'failed' : item.jobId ? 'running' : 'waiting'}
    >
      <div className="flex aspect-square items-center justify-center overflow-hidden rounded-md bg-muted/40">
        {/* Never stretched: a small photo stays its own size in the middle of its tile. */}
        <img
          src={result ?? before}
          alt={result ? `${op.name} result for ${item.file.name}` : item.file.name}
          className={cn('max-h-full max-w-full object-contain', result && CHECKERBOARD)}
        />
      </div>
      <p className="truncate text-xs text-muted-foreground" title={item.file.name}>
        {item.file.name}
      </p>
      {failed ? (
        <p className="flex items-start gap-1 text-xs font-medium text-destructive" data-testid="batch-item-error">
          <XCircle className="mt-0.5 h-3 w-3 shrink-0" aria-hidden /> {failed}
        </p>
      ) : result ? (
        <div className="flex flex-wrap items-center justify-between gap-1">
          <span className="flex items-center gap-1 text-xs text-emerald-700 dark:text-emerald-400">
            <CheckCircle2 className="h-3 w-3" aria-hidden /> Done
          </span>
          {offered && (
            <Button
              size="sm"
              variant="outline"
              onClick={() => download(job?.downloadUrls?.[0] ?? result, () => name)}
              disabled={downloading}
              aria-label={`Download ${name}`}
            >
              {downloading ? <Loader2 className="animate-spin" aria-hidden /> : <Download aria-hidden />}
            </Button>
          )}
        </div>
      ) : item.jobId !== undefined ? (
        <div className="space-y-1">
          <p className="flex items-center justify-between text-xs text-muted-foreground">
            <span>{job ? stageLabel(job) : 'Uploading'}</span>
            {percent !== undefined && <span>{percent}%</span>}
          </p>
          <Progress value={percent} />
        </div>
      ) : (
        <p className="text-xs text-muted-foreground">Waiting</p>
      )}
    </li>
  );
}
