import {
  defaultParams,
  type ErrorCode,
  type ImageJob,
  type Operation,
  type Params,
  type ParamValue,
} from '@ai-editor/core';
import { jobGoneState } from '@/features/library/JobGone';
import type { JobSource } from '../jobs';
import type { RanWith } from './jobInputs';
import { checkImageFile } from './validate';

/**
 * A tool page's workflow (docs/web.md#state-of-a-tool-page). The page's own events change `ToolState` through
 * `toolReducer`; the job it follows is React Query's (useJob), read by `jobPhase`. Requests, toasts, timers and
 * the address stay in ToolWorkspace: both functions here are pure.
 *
 *   no photo ─photoChosen→ photo ─submitStarted→ submitting ─inputsAccepted→ earlier result cleared
 *   submitting ─submitted(id)→ following the job: running → done | failed (cancelled too) | gone | lost
 *   submitting ─submitRefused→ as before Process: the photo, the settings and (refused in the page) the result kept
 *   ?job=ID when the page opens → following it and restoring: its photo, mask and settings are read back
 */
export interface ToolState {
  /** The photo: chosen, dropped or pasted, fetched from a chained result, or read back from a restored job. */
  photo: File | null;
  /** `?from=`: the earlier result the photo is; the submission names it instead of uploading it again. */
  source: JobSource | null;
  /** Face swap's second photo. */
  photo2: File | null;
  params: Params;
  /** The mask a restored job ran with, for the mask editor to start from. */
  initialMask: Blob | null;
  /** A chosen photo is being decoded: Process waits for it (a click would otherwise find no photo yet). */
  checking: boolean;
  /** The mask is being fitted to the object: Process waits for the mask it will send. */
  maskBusy: boolean;
  /** Process was clicked and its request has not been answered. */
  submitting: boolean;
  /** The job the page shows (`?job=` on the tool page). */
  jobId: number | null;
  /** The job the address named when the page opened, until what it ran with is read back. */
  restoring: number | null;
}

export type ToolEvent =
  /** Chosen, dropped, pasted or removed (null): replaces a chained result and a restored mask. */
  | { type: 'photoChosen'; photo: File | null }
  | { type: 'photo2Chosen'; photo: File | null }
  | { type: 'paramChanged'; name: string; value: ParamValue }
  | { type: 'checkingChanged'; checking: boolean }
  | { type: 'maskBusyChanged'; busy: boolean }
  /** The chained result arrived, to be shown and painted on. */
  | { type: 'sourceLoaded'; photo: File }
  /** The chained result could not be read: the page starts without it. */
  | { type: 'sourceFailed' }
  /** The restored job arrived; what it ran with is being read. */
  | { type: 'restoreStarted' }
  | { type: 'restored'; ran: RanWith }
  | { type: 'submitStarted' }
  /** The page's checks passed and the request goes out: a new request clears the earlier result. */
  | { type: 'inputsAccepted' }
  | { type: 'submitted'; jobId: number }
  /** Refused by the page's checks or by the server (its toast is the component's). */
  | { type: 'submitRefused' }
  /** Another try, an earlier try, or none (start again, a link to another tool's job). */
  | { type: 'jobShown'; jobId: number | null };

/** `?from=ID&index=I`: the result a chained job starts from; `?job=ID`: the job this page shows. */
function numberParam(search: URLSearchParams, name: string): number | null {
  const n = Number(search.get(name));
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** Where the page starts from: an embedded step's photo, or the address (`?from=`, `?job=`). */
export interface ToolOpening {
  search: URLSearchParams;
  /** Embedded in the multi-step editor: its photo (a file, or an earlier result); the address is not read. */
  embedded?: { file?: File; source?: JobSource };
  maxBytes: number;
}

export function initialToolState(op: Operation, { search, embedded, maxBytes }: ToolOpening): ToolState {
  const takesPhoto = op.input !== 'prompt';
  const from = embedded ? null : numberParam(search, 'from');
  const source = embedded
    ? (embedded.source ?? null)
    : from && takesPhoto
      ? { id: from, index: Number(search.get('index') ?? 0) || 0 }
      : null;
  // The editor's photo starts its first step.
  const photo = embedded?.file;
  const jobId = embedded ? null : numberParam(search, 'job');
  return {
    photo: photo && takesPhoto && !checkImageFile(photo, maxBytes) ? photo : null,
    source,
    photo2: null,
    params: defaultParams(op),
    initialMask: null,
    checking: false,
    maskBusy: false,
    submitting: false,
    jobId,
    restoring: jobId,
  };
}

export function toolReducer(state: ToolState, event: ToolEvent): ToolState {
  switch (event.type) {
    case 'photoChosen':
      return { ...state, photo: event.photo, source: null, initialMask: null };
    case 'photo2Chosen':
      return { ...state, photo2: event.photo };
    case 'paramChanged':
      return { ...state, params: { ...state.params, [event.name]: event.value } };
    case 'checkingChanged':
      return { ...state, checking: event.checking };
    case 'maskBusyChanged':
      return { ...state, maskBusy: event.busy };
    case 'sourceLoaded':
      return { ...state, photo: event.photo };
    case 'sourceFailed':
      return { ...state, source: null };
    case 'restoreStarted':
      return { ...state, restoring: null };
    case 'restored': {
      const { params, photo, mask, photo2 } = event.ran;
      const next = { ...state, params };
      if (photo) Object.assign(next, { photo, source: null, initialMask: mask });
      if (photo2) next.photo2 = photo2;
      return next;
    }
    case 'submitStarted':
      return { ...state, submitting: true };
    case 'inputsAccepted':
      return { ...state, jobId: null };
    case 'submitted':
      return { ...state, submitting: false, jobId: event.jobId };
    case 'submitRefused':
      return { ...state, submitting: false };
    case 'jobShown':
      return { ...state, jobId: event.jobId };
  }
}

/**
 * The photos Process needs, checked as the server checks an upload (the refusal's code, or undefined): none for
 * a prompt, none for a chained result (the server's own file, so no upload limit), both for face swap.
 */
export function missingPhoto(state: ToolState, op: Operation, maxBytes: number): ErrorCode | undefined {
  if (op.input !== 'prompt' && !state.source) {
    const code = checkImageFile(state.photo, maxBytes);
    if (code) return code;
  }
  if (op.input === 'two-photos') return checkImageFile(state.photo2, maxBytes);
  return undefined;
}

/** The job whose inputs the page should read back: the one the address named, once it arrives, if it is this tool's. */
export function jobToRestore(state: ToolState, op: Operation, job: ImageJob | undefined): ImageJob | undefined {
  return job && job.id === state.restoring && job.operation === op.id ? job : undefined;
}

/** What the followed job means for the page, from the job as the server last showed it (or the failed read). */
export type JobPhase =
  /** No job: the form alone. */
  | { kind: 'none' }
  /** Submitted, restored or another try, not ended (or not read yet): its progress, and Cancel while pending. */
  | { kind: 'running'; job: ImageJob | undefined }
  /** Its result, with the ways on (download, another tool, another try). */
  | { kind: 'done'; job: ImageJob }
  /** Failed or cancelled: its error under the form, the photo and settings kept to run again. */
  | { kind: 'failed'; job: ImageJob; cancelled: boolean }
  /** Deleted, unknown, someone else's, or its files expired: said in words, with a way to start again. */
  | { kind: 'gone'; why: 'not-available' | 'expired' }
  /** It could not be read (a toast says why); the form is free again. */
  | { kind: 'lost'; error: unknown }
  /** A link to another tool's job: this page shows nothing of it. */
  | { kind: 'otherTool' };

export function jobPhase(op: Operation, jobId: number | null, job: ImageJob | undefined, error: unknown): JobPhase {
  if (jobId === null) return { kind: 'none' };
  if (job && job.operation !== op.id) return { kind: 'otherTool' };
  const gone = jobGoneState(job, error);
  if (gone === 'not-available' || gone === 'expired') return { kind: 'gone', why: gone };
  if (error) return { kind: 'lost', error };
  if (!job || job.status === 'pending') return { kind: 'running', job };
  if (job.status === 'completed') return { kind: 'done', job };
  return { kind: 'failed', job, cancelled: job.metadata.errorCode === 'CANCELLED' };
}

/** Process is on its way or a job is running: the photo, the settings and the mask cannot change. */
export function isBusy(state: ToolState, phase: JobPhase): boolean {
  return state.submitting || phase.kind === 'running';
}

/** Process takes a click: nothing on its way, and no photo being decoded or mask being fitted (it waits for them). */
export function canProcess(state: ToolState, phase: JobPhase): boolean {
  return !isBusy(state, phase) && !state.checking && !state.maskBusy;
}
