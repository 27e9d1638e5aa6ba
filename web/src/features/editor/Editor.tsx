import {
  ACCEPTED_MIME_TYPES,
  extensionFor,
  getOperation,
  type ImageJob,
  type Operation,
  type OperationId,
  resultFileName,
} from '@ai-editor/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Download, Loader2, RotateCcw, Sparkles, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Page } from '@/components/layout/Page';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { JobGone, type JobGoneState, jobGoneState } from '@/features/library/JobGone';
import { usePhotoTools } from '@/features/library/usePhotoTools';
import { errorToast } from '@/features/tool/errorToast';
import { fetchBlob, type JobSource } from '@/features/tool/jobs';
import { CHECKERBOARD } from '@/features/tool/result/ResultCard';
import { useDownload } from '@/features/tool/result/useDownload';
import { useAccess } from '@/features/tool/useAccess';
import { useLimits } from '@/features/tool/useLimits';
import { PageFileTarget } from '@/features/tool/workspace/PageFileTarget';
import { ToolWorkspace } from '@/features/tool/workspace/ToolWorkspace';
import { UploadArea, useObjectUrl } from '@/features/tool/workspace/UploadArea';
import { takeOnePhoto } from '@/features/tool/workspace/usePhotoIntake';
import { queries } from '@/lib/queries';
import { cn } from '@/lib/utils';

/** `?steps=12,15.1`: the jobs of the chain, each `id` or `id.index` (which of its results the next step took). */
function parseSteps(value: string | null): JobSource[] {
  if (!value) return [];
  return value.split(',').flatMap((part) => {
    const [id, index = '0'] = part.split('.');
    const n = Number(id);
    const i = Number(index);
    return Number.isSafeInteger(n) && n > 0 && Number.isInteger(i) && i >= 0 ? [{ id: n, index: i }] : [];
  });
}
const formatSteps = (steps: JobSource[]) => steps.map((s) => (s.index ? `${s.id}.${s.index}` : `${s.id}`)).join(',');

const resultOf = (step: JobSource) => `/api/images/${step.id}/result/${step.index}`;

/**
 * /editor: one photo, edited in steps. Each step is a tool applied to the previous step's result (the server takes
 * it from its own storage; nothing is uploaded again). The steps live in the address, so a reload keeps them; any
 * step can be picked again, and a new step from there replaces the ones after it. Suggestions for the next step
 * come from the server's analysis of the current result.
 */
export default function Editor() {
  const [search, setSearch] = useSearchParams();
  const steps = parseSteps(search.get('steps'));
  const [photo, setPhoto] = useState<File | null>(null);
  const photoUrl = useObjectUrl(photo);
  /** Which picture the next step starts from: 0 is the photo, n the result of step n. */
  const [selected, setSelected] = useState<number | null>(null);
  const current = Math.min(selected ?? steps.length, steps.length);
  const [tool, setTool] = useState<Operation | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const { maxBytes } = useLimits();

  const jobs = useQueries({
    queries: steps.map((s) => ({
      ...queries.job(s.id),
    })),
  });
  const first = jobs[0]?.data;
  // Steps whose jobs are gone (deleted, expired, someone else's) are said so, never shown as broken pictures.
  const gone = jobs.map((q) => jobGoneState(q.data, q.error));
  const currentGone = current > 0 ? gone[current - 1] : photo ? undefined : gone[0];
  // The photo: the chosen file, or (after a reload) the first step's copy on the server.
  const originalUrl = photoUrl ?? first?.originalUrl ?? undefined;
  const started = Boolean(photo) || steps.length > 0;
  // A step's result is shown once its job is known to be there.
  const currentUrl =
    current === 0 ? originalUrl : jobs[current - 1]?.data ? resultOf(steps[current - 1] as JobSource) : undefined;
  const currentStep = current > 0 ? steps[current - 1] : undefined;

  const setSteps = (next: JobSource[]) => {
    setSearch(next.length ? { steps: formatSteps(next) } : {}, { replace: false });
  };

  /** Starts over with a new photo (the earlier steps stay in My images). */
  const startWith = (f: File) => {
    setPhoto(f);
    setSelected(null);
    setTool(null);
    setSteps([]);
  };
  // Photos are checked and refused as on the tool pages, however they came.
  const take = (files: File[]) => takeOnePhoto(files, startWith, maxBytes);

  const onCompleted = (job: ImageJob) => {
    setSteps([...steps.slice(0, current), { id: job.id, index: 0 }]);
    setSelected(null);
    setTool(null);
  };

  return (
    <Page
      title="Editor"
      lead="Edit one photo in steps: each tool works on the result of the one before. Go back to any step, then download the last."
      wide
    >
      {/* A photo dropped or pasted anywhere starts over; while a tool is open, that tool takes it. */}
      <PageFileTarget onFiles={take} disabled={Boolean(tool)} />
      {!started ? (
        <UploadArea
          label="Choose a photo"
          file={null}
          onFile={(f) => f && startWith(f)}
          onReject={errorToast}
          busy={false}
          maxBytes={maxBytes}
        />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[18rem_1fr]">
          <StepList
            steps={steps}
            jobs={jobs.map((q) => q.data)}
            gone={gone}
            originalUrl={originalUrl}
            current={current}
            onSelect={(i) => {
              setSelected(i);
              setTool(null);
              // After a reload the photo is only on the server: fetched back, a new first step can use it.
              if (i === 0 && !photo && first?.originalUrl) {
                fetchBlob(first.originalUrl).then(
                  (b) => setPhoto(new File([b], 'photo', { type: b.type })),
                  () => errorToast('IMAGE_LOAD_FAILED'),
                );
              }
            }}
            onNewPhoto={() => input.current?.click()}
          />
          {/* The picker behind 'Start over with a new photo'; its photo is taken as any other. */}
          <input
            ref={input}
            type="file"
            accept={ACCEPTED_MIME_TYPES.join(',')}
            className="sr-only"
            tabIndex={-1}
            aria-label="Choose a new photo"
            onChange={(e) => {
              take([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
          <div className="min-w-0 space-y-6">
            <Card>
              <CardHeader>
                <CardTitle as="h2">{current === 0 ? 'Your photo' : `After step ${current}`}</CardTitle>
                {current < steps.length && (
                  <CardDescription>A new step from here replaces the steps after it.</CardDescription>
                )}
              </CardHeader>
              <CardContent className="space-y-4">
                {currentGone ? (
                  <JobGone
                    state={currentGone}
                    className="shadow-none"
                    actions={
                      <Button onClick={() => input.current?.click()}>
                        <RotateCcw aria-hidden /> Start over with a new photo
                      </Button>
                    }
                  />
                ) : (
                  currentUrl && (
                    <div className={cn('overflow-hidden rounded-md border', CHECKERBOARD)}>
                      <img
                        src={currentUrl}
                        alt={current === 0 ? 'Your photo' : `Result of step ${current}`}
                        className="mx-auto max-h-[60vh] object-contain"
                        data-testid="editor-current"
                      />
                    </div>
                  )
                )}
                {steps.length > 0 && !gone.at(-1) && (
                  <DownloadLast step={steps[steps.length - 1] as JobSource} job={jobs.at(-1)?.data} />
                )}
              </CardContent>
            </Card>

            {tool ? (
              <section aria-labelledby="step-tool" className="space-y-3" data-testid="editor-step">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h2 id="step-tool" className="text-2xl font-semibold">
                    Step {current + 1}: {tool.name}
                  </h2>
                  <Button variant="ghost" onClick={() => setTool(null)}>
                    <X aria-hidden /> Choose another tool
                  </Button>
                </div>
                <ToolWorkspace
                  key={`${tool.id}:${current}:${steps.length}`}
                  op={tool}
                  embedded={{
                    file: current === 0 ? (photo ?? undefined) : undefined,
                    source: currentStep,
                    onCompleted,
                  }}
                />
              </section>
            ) : currentGone ? null : (
              <NextStep
                step={current + 1}
                recommendationsOf={currentStep ?? steps[0]}
                ofResult={Boolean(currentStep)}
                onPick={setTool}
              />
            )}
          </div>
        </div>
      )}
    </Page>
  );
}

function StepList({
  steps,
  jobs,
  gone,
  originalUrl,
  current,
  onSelect,
  onNewPhoto,
}: {
  steps: JobSource[];
  jobs: (ImageJob | undefined)[];
  gone: (JobGoneState | undefined)[];
  originalUrl?: string;
  current: number;
  onSelect(index: number): void;
  onNewPhoto(): void;
}) {
  const entries = [
    { label: 'Photo', url: originalUrl },
    ...steps.map((s, i) => {
      const job = jobs[i];
      const state = gone[i];
      if (state) return { label: 'No longer available', url: undefined };
      return {
        label: getOperation(job?.operation ?? '')?.name ?? 'Loading...',
        // The server's small thumbnail (of a job's first result), else the result itself; once the job is known.
        url: !job ? undefined : s.index === 0 ? `/api/images/${s.id}/thumbnail?v=completed` : resultOf(s),
      };
    }),
  ];
  return (
    <nav aria-labelledby="steps-heading" className="min-w-0 space-y-3">
      <h2 id="steps-heading" className="text-lg font-semibold">
        Steps
      </h2>
      <ol className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-1" data-testid="editor-steps">
        {entries.map((entry, i) => (
          <li key={`${i}:${entry.url}`} className="min-w-0">
            <button
              type="button"
              onClick={() => onSelect(i)}
              aria-current={i === current ? 'step' : undefined}
              className={cn(
                'flex w-full items-center gap-3 rounded-lg border p-2 text-left text-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                i === current && 'border-primary bg-accent',
              )}
              data-testid="editor-step-item"
            >
              <span className={cn('h-12 w-12 shrink-0 overflow-hidden rounded border', CHECKERBOARD)}>
                {entry.url && <img src={entry.url} alt="" className="h-full w-full object-cover" />}
              </span>
              <span className="min-w-0">
                <span className="block text-xs text-muted-foreground">{i === 0 ? 'Start' : `Step ${i}`}</span>
                <span className="block truncate font-medium">{entry.label}</span>
              </span>
            </button>
          </li>
        ))}
      </ol>
      <Button variant="outline" size="sm" onClick={onNewPhoto}>
        <RotateCcw aria-hidden /> Start over with a new photo
      </Button>
    </nav>
  );
}

function DownloadLast({ step, job }: { step: JobSource; job?: ImageJob }) {
  const op = job ? getOperation(job.operation) : undefined;
  const access = useAccess((job?.operation ?? 'face-enhancement') as OperationId);
  const { offered, downloading, download } = useDownload({
    canDownload: access.canDownload,
    failure: 'DOWNLOAD_FAILED',
  });
  if (!offered || !op) return null;
  return (
    <Button
      onClick={() =>
        download(`/api/images/${step.id}/download/${step.index}`, (blob) =>
          resultFileName(op.id, step.id, step.index, extensionFor(blob.type)),
        )
      }
      disabled={downloading}
      data-testid="editor-download"
    >
      {downloading ? <Loader2 className="animate-spin" aria-hidden /> : <Download aria-hidden />} Download the last step
    </Button>
  );
}

/** The tools for the next step, with the server's suggestions for the current picture first. */
function NextStep({
  step,
  recommendationsOf,
  ofResult,
  onPick,
}: {
  step: number;
  /** The job whose result (or, for the photo, whose upload) the server analyses. */
  recommendationsOf?: JobSource;
  ofResult: boolean;
  onPick(op: Operation): void;
}) {
  const tools = usePhotoTools();
  const id = recommendationsOf?.id;
  // The server's suggestions are already the tools a visitor can run next here (services/recommendations.ts).
  const { data: suggested = [], isFetching } = useQuery({
    ...queries.recommendations(id ?? 0, ofResult ? 'result' : 'photo'),
    enabled: id !== undefined,
  });
  return (
    <section aria-labelledby="next-heading" className="space-y-4" data-testid="editor-next">
      <h2 id="next-heading" className="text-2xl font-semibold">
        Step {step}: choose a tool
      </h2>
      {id !== undefined && (
        <div className="space-y-2" aria-live="polite">
          <h3 className="flex items-center gap-2 font-medium">
            <Sparkles className="h-4 w-4 text-primary" aria-hidden /> Suggested for this picture
          </h3>
          {isFetching ? (
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> Looking at the picture...
            </p>
          ) : suggested.length === 0 ? (
            <p className="text-sm text-muted-foreground">No particular suggestion: any tool below can be next.</p>
          ) : (
            <ul className="grid gap-3 md:grid-cols-2">
              {suggested.map((r) => {
                const op = getOperation(r.operationId) as Operation;
                return (
                  <li key={r.operationId}>
                    <button
                      type="button"
                      onClick={() => onPick(op)}
                      className="flex h-full w-full flex-col items-start gap-1 rounded-lg border border-primary/40 p-4 text-left hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                      data-testid="recommendation"
                    >
                      <span className="font-medium">{op.name}</span>
                      <span className="text-sm text-muted-foreground">{r.reason}</span>
                      <span className="text-xs tabular-nums text-muted-foreground">
                        {Math.round(r.confidence * 100)}% match
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
      <div className="space-y-2">
        <h3 className="font-medium">All photo tools on this server</h3>
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {tools.map((op) => (
            <li key={op.id}>
              <button
                type="button"
                onClick={() => onPick(op)}
                className="flex h-full w-full flex-col items-start gap-1 rounded-lg border p-4 text-left hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                data-testid={`editor-tool-${op.id}`}
              >
                <span className="font-medium">{op.name}</span>
                <span className="text-sm text-muted-foreground">{op.description}</span>
              </button>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
