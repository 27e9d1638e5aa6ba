import {
  defaultParams,
  type ErrorCode,
  errorMessage,
  errorTitle,
  LIMITS,
  type Operation,
  type Params,
  type ParamValue,
} from '@ai-editor/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, Sparkles, Wand2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { UsageNotice } from '@/features/auth/UsageNotice';
import { takeCarriedPhoto } from '@/features/editor/carry';
import { useServerConfig } from '@/lib/server';
import { BatchPanel } from './BatchPanel';
import { JobProgress } from './JobProgress';
import { fetchJob, type ImageJob, jobKey, submitJob, ToolError } from './jobs';
import { MaskEditor, type MaskEditorHandle } from './MaskEditor';
import { PageFileTarget } from './PageFileTarget';
import { ParamControls } from './ParamControls';
import { RecommendationCard } from './RecommendationCard';
import { ResultCard } from './ResultCard';
import { UploadArea, useObjectUrl } from './UploadArea';
import { useAccess } from './useAccess';
import { useLimits } from './useLimits';
import { usePhotoIntake } from './usePhotoIntake';
import { checkImageFile, checkOutput, checkParams } from './validate';

/** The server's words for a missing mask (server/src/services/uploads.ts), said before anything is sent. */
const MASK_MISSING = 'Please paint the area to change (the mask is missing)';

function showError(err: unknown) {
  const e = err instanceof ToolError ? err : ToolError.of('PROCESS_FAILED');
  toast({ variant: 'destructive', title: e.title, description: e.message });
}

const errorToast = (code: ErrorCode) =>
  toast({ variant: 'destructive', title: errorTitle(code), description: errorMessage(code) });

/**
 * One working tool (SPEC §4 flow): idle → submitting → polling every 2000 ms → completed (result shown, polling
 * stops) or failed (toast, busy ends, polling stops). A new request clears the earlier result.
 */
export function ToolWorkspace({ op }: { op: Operation }) {
  const queryClient = useQueryClient();
  const access = useAccess(op.id);
  const { data: config } = useServerConfig();
  const maxBytes = config?.limits?.maxUploadBytes ?? LIMITS.maxUploadBytes;
  const { maxOutputPixels } = useLimits();
  // A photo handed over by /editor or a 'Try Now' card starts the page (once; a reload starts empty).
  const [file, setFile] = useState<File | null>(() => {
    const photo = takeCarriedPhoto();
    return photo && op.input !== 'prompt' && !checkImageFile(photo, maxBytes) ? photo : null;
  });
  const [file2, setFile2] = useState<File | null>(null);
  const [params, setParams] = useState<Params>(() => defaultParams(op));
  const [submitting, setSubmitting] = useState(false);
  const [jobId, setJobId] = useState<number | null>(null);
  const maskRef = useRef<MaskEditorHandle>(null);
  const intake = usePhotoIntake(op, setFile, maxBytes);
  const localBefore = useObjectUrl(file);
  const progressRef = useRef<HTMLDivElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);

  const { data: job, error: pollError } = useQuery<ImageJob>({
    queryKey: jobKey(jobId ?? 0),
    queryFn: ({ signal }) => fetchJob(jobId as number, signal),
    enabled: jobId !== null,
    refetchInterval: (q) =>
      q.state.status === 'success' && q.state.data?.status === 'pending' ? LIMITS.pollIntervalToolMs : false,
  });

  const finished = job?.status === 'completed' || job?.status === 'failed';
  const busy = submitting || (jobId !== null && !finished && !pollError);

  // Outcomes: each job reports once.
  const reported = useRef<number | null>(null);
  useEffect(() => {
    if (jobId === null || reported.current === jobId) return;
    if (pollError) {
      reported.current = jobId;
      showError(pollError);
    } else if (job?.status === 'failed') {
      reported.current = jobId;
      toast({
        variant: 'destructive',
        title: 'Error',
        description: job.metadata.error || errorMessage('PROCESSING_FAILED'),
      });
    } else if (job?.status === 'completed') {
      reported.current = jobId;
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

  const submit = async () => {
    if (!access.canUse) {
      errorToast(access.reason ?? 'FEATURE_RESTRICTED');
      return;
    }
    try {
      if (op.input !== 'prompt') {
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
      if (op.mask === 'required' && !mask) throw new ToolError('Error', MASK_MISSING);
      // A new request clears the earlier result.
      setJobId(null);
      setSubmitting(true);
      // Only the fields the operation takes travel; text2img with an empty prompt is refused above.
      const created = await submitJob(op, { file, file2, mask, params: checked });
      queryClient.setQueryData(jobKey(created.id), created);
      setJobId(created.id);
      access.onUsed?.();
    } catch (err) {
      showError(err);
    } finally {
      setSubmitting(false);
    }
  };

  const completed = job?.status === 'completed' && job.processedUrl ? job : undefined;
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
                  onFile={setFile}
                  onReject={errorToast}
                  busy={submitting}
                  disabled={busy}
                  maxBytes={maxBytes}
                  hidePreview={Boolean(op.mask)}
                  onFiles={intake.canBatch ? intake.take : undefined}
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
          {op.mask && file && <MaskEditor ref={maskRef} file={file} operation={op.id} disabled={busy} />}
          <ParamControls defs={op.params} values={params} onChange={setParam} disabled={busy} />
          <Button size="lg" onClick={submit} disabled={busy} data-testid="submit">
            {busy ? (
              <Loader2 className="animate-spin" aria-hidden />
            ) : needsPhoto ? (
              <Wand2 aria-hidden />
            ) : (
              <Sparkles aria-hidden />
            )}
            {needsPhoto ? 'Process Image' : 'Generate'}
          </Button>
        </CardContent>
      </Card>

      {busy && (
        <div ref={progressRef} className="scroll-mt-24">
          <JobProgress job={job} />
        </div>
      )}

      {completed && (
        <div ref={resultRef} className="scroll-mt-24">
          <ResultCard
            op={op}
            job={completed}
            beforeUrl={completed.originalUrl ?? localBefore}
            canDownload={access.canDownload}
          />
        </div>
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
      {completed && needsPhoto && <RecommendationCard imageId={completed.id} photo={file} />}
    </div>
  );
}
