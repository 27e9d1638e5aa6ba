import {
  defaultParams,
  errorMessage,
  type ImageJob,
  LIMITS,
  mayTryAgain,
  type Operation,
  type Params,
  type ParamValue,
} from '@ai-editor/core';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2, Sparkles, Wand2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { LimitReason, UsageNotice } from '@/features/auth/UsageNotice';
import { fetchResultPhoto } from '@/features/library/api';
import { JobGone, jobGoneState } from '@/features/library/JobGone';
import { UseInTool } from '@/features/library/UseInTool';
import { queries } from '@/lib/queries';
import { useServerConfig } from '@/lib/server';
import { errorToast, failureToast } from '../errorToast';
import { type JobSource, newIdempotencyKey, submitJob, ToolError } from '../jobs';
import { MaskEditor, type MaskEditorHandle } from '../mask-editor/MaskEditor';
import { CancelJobButton } from '../result/CancelJobButton';
import { FillTries, TryAnotherFill } from '../result/FillTries';
import { JobProgress } from '../result/JobProgress';
import { ResultCard } from '../result/ResultCard';
import { SegmentationResult } from '../result/SegmentationResult';
import { useAccess } from '../useAccess';
import { useJob } from '../useJob';
import { useLimits } from '../useLimits';
import { BatchPanel } from './BatchPanel';
import { fetchRanWith } from './jobInputs';
import { PageFileTarget } from './PageFileTarget';
import { ParamControls } from './ParamControls';
import { PhotoEstimate } from './PhotoEstimate';
import { RecommendationCard } from './RecommendationCard';
import { UploadArea, useObjectUrl } from './UploadArea';
import { usePhotoIntake } from './usePhotoIntake';
import { checkImageFile, checkOutput, checkParams } from './validate';

/** `?from=ID&index=I`: the result a chained job starts from; `?job=ID`: the job this page shows. */
function numberParam(search: URLSearchParams, name: string): number | null {
  const n = Number(search.get(name));
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

export interface ToolWorkspaceProps {
  op: Operation;
  /**
   * Embedded in the multi-step editor: the photo to start from (a file for the first step, an earlier result
   * after that), told when the job completes instead of showing the result, and the address left alone.
   */
  embedded?: { file?: File; source?: JobSource; onCompleted(job: ImageJob): void };
}

/**
 * One working tool (docs/product.md#flows): idle → submitting → polling every 2000 ms → completed (result shown, polling
 * stops) or failed (toast, busy ends, polling stops). A new request clears the earlier result. On the tool page
 * the running job lives in the address (`?job=`), so a reload or a shared link picks it up; `?from=` starts from
 * an earlier result, which the server reads from its own storage (nothing is uploaded again).
 */
export function ToolWorkspace({ op, embedded }: ToolWorkspaceProps) {
  const queryClient = useQueryClient();
  const access = useAccess(op.id);
  const { data: config } = useServerConfig();
  const maxBytes = config?.limits?.maxUploadBytes ?? LIMITS.maxUploadBytes;
  const { maxOutputPixels } = useLimits();
  const [search, setSearch] = useSearchParams();
  const [source, setSource] = useState<JobSource | null>(() => {
    if (embedded) return embedded.source ?? null;
    const from = numberParam(search, 'from');
    return from && op.input !== 'prompt' ? { id: from, index: Number(search.get('index') ?? 0) || 0 } : null;
  });
  // The editor's photo starts its first step.
  const [file, setFile] = useState<File | null>(() => {
    const photo = embedded?.file;
    return photo && op.input !== 'prompt' && !checkImageFile(photo, maxBytes) ? photo : null;
  });
  const [file2, setFile2] = useState<File | null>(null);
  const [params, setParams] = useState<Params>(() => defaultParams(op));
  const [submitting, setSubmitting] = useState(false);
  // A chosen photo still being decoded: Process waits for it (a click would otherwise find no photo yet).
  const [checking, setChecking] = useState(false);
  // The mask is being fitted to the object: Process waits for the mask it will send.
  const [maskBusy, setMaskBusy] = useState(false);
  const [jobId, setJobId] = useState<number | null>(() => (embedded ? null : numberParam(search, 'job')));
  // The job the address named when the page opened (a reload, the back button, a shared link, My images): what it
  // ran with (photo, mask, settings) is read back from the job, not from the page's memory.
  const restoring = useRef<number | null>(jobId);
  const [initialMask, setInitialMask] = useState<Blob | null>(null);
  const maskRef = useRef<MaskEditorHandle>(null);
  // A photo the visitor chooses (or drops, or pastes) replaces a chained result.
  const chooseFile = (f: File | null) => {
    setSource(null);
    setInitialMask(null);
    setFile(f);
  };
  const intake = usePhotoIntake(op, chooseFile, maxBytes, setChecking);
  const localBefore = useObjectUrl(file);
  const progressRef = useRef<HTMLDivElement>(null);

  // The chained result, fetched to be shown (and painted on); the submission names the job instead.
  useEffect(() => {
    if (!source) return;
    let live = true;
    fetchResultPhoto(source).then(
      (photo) => live && setFile(photo),
      () => {
        if (!live) return;
        setSource(null);
        errorToast('IMAGE_LOAD_FAILED');
      },
    );
    return () => {
      live = false;
    };
  }, [source]);

  // The tool page's address names the job it shows (replacing ?from=, which has done its work).
  const showJob = (id: number | null) => {
    setJobId(id);
    if (embedded) return;
    setSearch(id === null ? {} : { job: String(id) }, { replace: true });
  };
  const resultRef = useRef<HTMLDivElement>(null);

  // Pushed by the server while it runs; polled only when the stream is not available.
  const { data: job, error: pollError } = useJob(jobId);

  const restoreFrom = job?.id === restoring.current && job?.operation === op.id ? job : undefined;
  useEffect(() => {
    if (!restoreFrom) return;
    restoring.current = null;
    fetchRanWith(op, restoreFrom).then(
      (ran) => {
        setParams(ran.params);
        if (ran.photo) {
          setSource(null);
          setInitialMask(ran.mask);
          setFile(ran.photo);
        }
        if (ran.photo2) setFile2(ran.photo2);
      },
      () => errorToast('IMAGE_LOAD_FAILED'),
    );
  }, [restoreFrom?.id]);

  // A job that is gone (deleted, unknown, someone else's, expired) is said so in words, with a way on.
  const gone = jobGoneState(job, pollError);
  const goneForGood = gone === 'not-available' || gone === 'expired' ? gone : undefined;

  // A link to another tool's job shows nothing here.
  const otherTool = job !== undefined && job.operation !== op.id;
  useEffect(() => {
    if (otherTool) showJob(null);
  });

  const finished = job?.status === 'completed' || job?.status === 'failed';
  const busy = submitting || (jobId !== null && !finished && !pollError);

  // Outcomes: each job reports once.
  const reported = useRef<number | null>(null);
  useEffect(() => {
    if (jobId === null || reported.current === jobId) return;
    if (pollError) {
      reported.current = jobId;
      if (!goneForGood) failureToast(pollError);
    } else if (job?.status === 'failed') {
      reported.current = jobId;
      if (job.metadata.errorCode === 'CANCELLED') toast({ title: 'Cancelled', description: 'The job was cancelled.' });
      else
        toast({
          variant: 'destructive',
          title: 'Error',
          description: job.metadata.error || errorMessage('PROCESSING_FAILED'),
        });
    } else if (job?.status === 'completed') {
      reported.current = jobId;
      embedded?.onCompleted(job);
    }
  }, [job, pollError, jobId]);

  // Bring the progress, then the result, into view: on small screens they start below the fold.
  useEffect(() => {
    if (busy) progressRef.current?.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
  }, [busy]);
  const completedId = job?.status === 'completed' ? job.id : undefined;
  useEffect(() => {
    if (completedId !== undefined) resultRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [completedId]);

  const setParam = (name: string, value: ParamValue) => setParams((p) => ({ ...p, [name]: value }));

  // Set at the first click, before anything is awaited: a double-click sends one submission.
  const sending = useRef(false);
  const submit = async () => {
    if (sending.current) return;
    if (!access.canUse) {
      errorToast(access.reason ?? 'FEATURE_RESTRICTED');
      return;
    }
    sending.current = true;
    setSubmitting(true);
    // One key per submission: should the request be sent twice (a retry), the server makes one job of it.
    const idempotencyKey = newIdempotencyKey();
    try {
      // A chained result is the server's own file: no upload, so no upload limit.
      if (op.input !== 'prompt' && !source) {
        const code = checkImageFile(file, maxBytes);
        if (code) throw ToolError.of(code);
      }
      if (op.input === 'two-photos') {
        const code = checkImageFile(file2, maxBytes);
        if (code) throw ToolError.of(code);
      }
      const checked = checkParams(op, params);
      await checkOutput(op, checked, op.input === 'prompt' ? null : file, maxOutputPixels);
      const mask = op.mask ? await maskRef.current?.toMask() : undefined;
      if (op.mask === 'required' && !mask) throw ToolError.of('MASK_REQUIRED');
      if (source && !file) throw ToolError.of('IMAGE_LOAD_FAILED');
      // A new request clears the earlier result.
      setJobId(null);
      // Only the fields the operation takes travel; text2img with an empty prompt is refused above.
      const created = await submitJob(op, {
        file: source ? null : file,
        source,
        file2,
        mask,
        params: checked,
        idempotencyKey,
      });
      queryClient.setQueryData(queries.job(created.id).queryKey, created);
      showJob(created.id);
      access.onUsed?.();
    } catch (err) {
      failureToast(err);
    } finally {
      sending.current = false;
      setSubmitting(false);
    }
  };

  const completed = job?.status === 'completed' && job.processedUrl ? job : undefined;
  const retryable = completed !== undefined && mayTryAgain(op.id, completed.metadata);
  // Segmentation's result can be edited by clicking objects before downloading.
  const Result = op.selects && !op.mask ? SegmentationResult : ResultCard;
  const needsPhoto = op.input !== 'prompt';
  if (intake.batch) {
    return <BatchPanel op={op} files={intake.batch} params={params} onExit={intake.exitBatch} />;
  }

  return (
    <div className="space-y-6" data-testid="tool-workspace">
      <PageFileTarget onFiles={intake.take} disabled={busy || !needsPhoto} />
      <Card>
        <CardHeader>
          <CardTitle as="h2">{needsPhoto ? 'Your photo' : 'Describe your image'}</CardTitle>
        </CardHeader>
        <CardContent className="space-y-6">
          <UsageNotice operation={op.id} />
          {needsPhoto && (
            <div className={op.input === 'two-photos' ? 'grid gap-4 md:grid-cols-2' : undefined}>
              <div className="space-y-2">
                {op.input === 'two-photos' && <p className="text-sm font-medium">Photo with the person</p>}
                <UploadArea
                  label="Photo"
                  file={file}
                  onFile={chooseFile}
                  onReject={errorToast}
                  busy={submitting}
                  disabled={busy}
                  maxBytes={maxBytes}
                  hidePreview={Boolean(op.mask)}
                  onFiles={intake.canBatch ? intake.take : undefined}
                  onChecking={setChecking}
                  checking={checking}
                />
              </div>
              {op.input === 'two-photos' && (
                <div className="space-y-2">
                  <p className="text-sm font-medium">Photo with the face to use</p>
                  <UploadArea
                    label="Face photo"
                    file={file2}
                    onFile={setFile2}
                    onReject={errorToast}
                    busy={submitting}
                    disabled={busy}
                    maxBytes={maxBytes}
                  />
                </div>
              )}
            </div>
          )}
          {op.mask && file && (
            <MaskEditor
              ref={maskRef}
              file={file}
              operation={op.id}
              disabled={busy}
              initialMask={initialMask}
              onBusyChange={setMaskBusy}
            />
          )}
          <ParamControls defs={op.params} values={params} onChange={setParam} disabled={busy} />
          {needsPhoto && <PhotoEstimate operation={op.id} file={file} params={params} />}
          <Button
            size="lg"
            onClick={submit}
            // No uses left today: disabled, with the reason and when uses come back beside it.
            disabled={busy || checking || maskBusy || access.reason === 'DAILY_LIMIT_REACHED'}
            aria-describedby={access.reason === 'DAILY_LIMIT_REACHED' ? 'limit-reason' : undefined}
            data-testid="submit"
          >
            {busy ? (
              <Loader2 className="animate-spin" aria-hidden />
            ) : needsPhoto ? (
              <Wand2 aria-hidden />
            ) : (
              <Sparkles aria-hidden />
            )}
            {needsPhoto ? 'Process Image' : 'Generate'}
          </Button>
          <LimitReason operation={op.id} id="limit-reason" />
        </CardContent>
      </Card>

      {busy && (
        <div ref={progressRef} className="scroll-mt-24 space-y-3">
          <JobProgress job={job} />
          {job?.status === 'pending' && <CancelJobButton jobId={job.id} />}
        </div>
      )}

      {completed && !embedded && (
        <div ref={resultRef} className="scroll-mt-24">
          <Result
            key={completed.id}
            op={op}
            job={completed}
            beforeUrl={completed.originalUrl ?? localBefore}
            canDownload={access.canDownload}
            actions={(index) => (
              <>
                <UseInTool jobId={completed.id} index={index} exclude={op.id} />
                {retryable && <TryAnotherFill jobId={completed.id} onStarted={showJob} />}
              </>
            )}
          />
          {retryable && <FillTries jobId={completed.id} onShow={showJob} />}
        </div>
      )}
      {goneForGood && !embedded && (
        <JobGone
          state={goneForGood}
          operation={op.id}
          actions={
            <Button variant="default" onClick={() => showJob(null)} data-testid="job-gone-start-over">
              <Wand2 aria-hidden /> Start again here
            </Button>
          }
        />
      )}
      {job?.status === 'failed' && (
        <p
          role="alert"
          className="rounded-lg border border-destructive/50 p-4 text-destructive"
          data-testid="job-error"
        >
          {job.metadata.error || errorMessage('PROCESSING_FAILED')}
        </p>
      )}
      {/* After the result, when the worker is free again to look at the photo (faces need it). */}
      {completed && needsPhoto && !embedded && <RecommendationCard imageId={completed.id} />}
    </div>
  );
}
