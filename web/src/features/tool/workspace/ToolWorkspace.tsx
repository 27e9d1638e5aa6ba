import { errorMessage, type ImageJob, LIMITS, mayTryAgain, type Operation, type ParamValue } from '@ai-editor/core';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2, Sparkles, Wand2 } from 'lucide-react';
import { useEffect, useReducer, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { LimitReason, UsageNotice } from '@/features/auth/UsageNotice';
import { fetchResultPhoto } from '@/features/library/api';
import { JobGone } from '@/features/library/JobGone';
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
import { checkOutput, checkParams } from './validate';
import {
  canProcess,
  initialToolState,
  isBusy,
  jobPhase,
  jobToRestore,
  missingPhoto,
  type ToolOpening,
  toolReducer,
} from './workflow';

export interface ToolWorkspaceProps {
  op: Operation;
  /**
   * Embedded in the multi-step editor: the photo to start from (a file for the first step, an earlier result
   * after that), told when the job completes instead of showing the result, and the address left alone.
   */
  embedded?: { file?: File; source?: JobSource; onCompleted(job: ImageJob): void };
}

/**
 * One working tool: its workflow's states and events are workflow.ts's (photo → submitting → the job followed →
 * done, failed or gone); this component sends the requests, shows the toasts and keeps the address. On the tool
 * page the job lives in the address (`?job=`), so a reload or a shared link picks it up; `?from=` starts from an
 * earlier result, which the server reads from its own storage (nothing is uploaded again).
 */
export function ToolWorkspace({ op, embedded }: ToolWorkspaceProps) {
  const queryClient = useQueryClient();
  const access = useAccess(op.id);
  const { data: config } = useServerConfig();
  const maxBytes = config?.limits?.maxUploadBytes ?? LIMITS.maxUploadBytes;
  const { maxOutputPixels } = useLimits();
  const [search, setSearch] = useSearchParams();
  const [state, dispatch] = useReducer(toolReducer, { search, embedded, maxBytes }, (opening: ToolOpening) =>
    initialToolState(op, opening),
  );
  const { photo: file, photo2: file2, source, params, checking, submitting, jobId, initialMask } = state;
  const maskRef = useRef<MaskEditorHandle>(null);
  const chooseFile = (photo: File | null) => dispatch({ type: 'photoChosen', photo });
  const setChecking = (checking: boolean) => dispatch({ type: 'checkingChanged', checking });
  const intake = usePhotoIntake(op, chooseFile, maxBytes, setChecking);
  const localBefore = useObjectUrl(file);
  const progressRef = useRef<HTMLDivElement>(null);

  // The chained result, fetched to be shown (and painted on); the submission names the job instead.
  useEffect(() => {
    if (!source) return;
    let live = true;
    fetchResultPhoto(source).then(
      (photo) => live && dispatch({ type: 'sourceLoaded', photo }),
      () => {
        if (!live) return;
        dispatch({ type: 'sourceFailed' });
        errorToast('IMAGE_LOAD_FAILED');
      },
    );
    return () => {
      live = false;
    };
  }, [source]);

  // The tool page's address names the job it shows (replacing ?from=, which has done its work).
  const addressJob = (id: number | null) => {
    if (!embedded) setSearch(id === null ? {} : { job: String(id) }, { replace: true });
  };
  const showJob = (jobId: number | null) => {
    dispatch({ type: 'jobShown', jobId });
    addressJob(jobId);
  };
  const resultRef = useRef<HTMLDivElement>(null);

  // Pushed by the server while it runs; polled only when the stream is not available.
  const { data: job, error: pollError } = useJob(jobId);
  const phase = jobPhase(op, jobId, job, pollError);

  // The job the address named when the page opened (a reload, the back button, a shared link, My images): what it
  // ran with (photo, mask, settings) is read back from the job, not from the page's memory.
  const restoreFrom = jobToRestore(state, op, job);
  useEffect(() => {
    if (!restoreFrom) return;
    dispatch({ type: 'restoreStarted' });
    fetchRanWith(op, restoreFrom).then(
      (ran) => dispatch({ type: 'restored', ran }),
      () => errorToast('IMAGE_LOAD_FAILED'),
    );
  }, [restoreFrom?.id]);

  // A link to another tool's job shows nothing here.
  useEffect(() => {
    if (phase.kind === 'otherTool') showJob(null);
  });

  const busy = isBusy(state, phase);

  // Outcomes: each job reports once.
  const reported = useRef<number | null>(null);
  useEffect(() => {
    if (jobId === null || reported.current === jobId) return;
    if (phase.kind === 'lost' || phase.kind === 'gone') {
      reported.current = jobId;
      if (phase.kind === 'lost') failureToast(phase.error);
    } else if (phase.kind === 'failed') {
      reported.current = jobId;
      if (phase.cancelled) toast({ title: 'Cancelled', description: 'The job was cancelled.' });
      else
        toast({
          variant: 'destructive',
          title: 'Error',
          description: phase.job.metadata.error || errorMessage('PROCESSING_FAILED'),
        });
    } else if (phase.kind === 'done') {
      reported.current = jobId;
      embedded?.onCompleted(phase.job);
    }
  }, [job, pollError, jobId]);

  // Bring the progress, then the result, into view: on small screens they start below the fold.
  useEffect(() => {
    if (busy) progressRef.current?.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
  }, [busy]);
  const completed = phase.kind === 'done' ? phase.job : undefined;
  useEffect(() => {
    if (completed) resultRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [completed?.id]);

  const setParam = (name: string, value: ParamValue) => dispatch({ type: 'paramChanged', name, value });

  // Set at the first click, before anything is awaited: a double-click sends one submission.
  const sending = useRef(false);
  const submit = async () => {
    if (sending.current) return;
    if (!access.canUse) {
      errorToast(access.reason ?? 'FEATURE_RESTRICTED');
      return;
    }
    sending.current = true;
    dispatch({ type: 'submitStarted' });
    // One key per submission: should the request be sent twice (a retry), the server makes one job of it.
    const idempotencyKey = newIdempotencyKey();
    try {
      const missing = missingPhoto(state, op, maxBytes);
      if (missing) throw ToolError.of(missing);
      const checked = checkParams(op, params);
      await checkOutput(op, checked, op.input === 'prompt' ? null : file, maxOutputPixels);
      const mask = op.mask ? await maskRef.current?.toMask() : undefined;
      if (op.mask === 'required' && !mask) throw ToolError.of('MASK_REQUIRED');
      if (source && !file) throw ToolError.of('IMAGE_LOAD_FAILED');
      dispatch({ type: 'inputsAccepted' });
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
      dispatch({ type: 'submitted', jobId: created.id });
      addressJob(created.id);
      access.onUsed?.();
    } catch (err) {
      failureToast(err);
      dispatch({ type: 'submitRefused' });
    } finally {
      sending.current = false;
    }
  };

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
                    onFile={(photo) => dispatch({ type: 'photo2Chosen', photo })}
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
              mayUse={access.canUse}
              initialMask={initialMask}
              onBusyChange={(busy) => dispatch({ type: 'maskBusyChanged', busy })}
            />
          )}
          <ParamControls defs={op.params} values={params} onChange={setParam} disabled={busy} />
          {needsPhoto && <PhotoEstimate operation={op.id} file={file} params={params} />}
          <Button
            size="lg"
            onClick={submit}
            // No uses left today: disabled, with the reason and when uses come back beside it.
            disabled={!canProcess(state, phase) || access.reason === 'DAILY_LIMIT_REACHED'}
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
          {phase.kind === 'running' && phase.job && <CancelJobButton jobId={phase.job.id} />}
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
      {phase.kind === 'gone' && !embedded && (
        <JobGone
          state={phase.why}
          operation={op.id}
          actions={
            <Button variant="default" onClick={() => showJob(null)} data-testid="job-gone-start-over">
              <Wand2 aria-hidden /> Start again here
            </Button>
          }
        />
      )}
      {phase.kind === 'failed' && (
        <p
          role="alert"
          className="rounded-lg border border-destructive/50 p-4 text-destructive"
          data-testid="job-error"
        >
          {phase.job.metadata.error || errorMessage('PROCESSING_FAILED')}
        </p>
      )}
      {/* After the result, when the worker is free again to look at the photo (faces need it). */}
      {completed && needsPhoto && !embedded && <RecommendationCard imageId={completed.id} />}
    </div>
  );
}
