import { type ErrorCode, type ImageJob, type Operation, type Params } from '@ai-editor/core';
import { api } from '@/lib/api';

// The job API the data layer (lib/queries) also reads lives in lib/job-api.ts.
export { fetchJob, streamJob, ToolError } from '@/lib/job-api';

import { fetchJob, ToolError } from '@/lib/job-api';

/** An earlier job's result used as the photo, instead of an upload. */
export interface JobSource {
  id: number;
  index: number;
}

export interface JobInputs {
  file?: File | null;
  /** Chaining: the server takes the photo from this job's result; `file` is then not sent. */
  source?: JobSource | null;
  mask?: Blob | null;
  file2?: File | null;
  params: Params;
  /** One per submission (newIdempotencyKey): a retried or repeated request then makes no second job. */
  idempotencyKey?: string;
}

/**
 * A fresh `Idempotency-Key` (a UUID v4). `crypto.randomUUID` exists only on secure pages (HTTPS, localhost); a
 * server reached over plain HTTP on a local network gets one made from `crypto.getRandomValues`.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] as number) & 0x0f) | 0x40;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `POST /api/images`: the multipart form; errors worded by the server's catalogue code, or as the page's own. */
export async function submitJob(op: Operation, inputs: JobInputs): Promise<ImageJob> {
  const form = new FormData();
  form.append('operation', op.id);
  for (const [name, value] of Object.entries(inputs.params)) form.append(name, String(value));
  if (inputs.source) {
    form.append('source', String(inputs.source.id));
    form.append('sourceIndex', String(inputs.source.index));
  } else if (inputs.file) form.append('file', inputs.file, inputs.file.name);
  if (inputs.mask) form.append('mask', inputs.mask, 'mask.png');
  if (inputs.file2) form.append('file2', inputs.file2, inputs.file2.name);
  let answer: Awaited<ReturnType<typeof postImages>>;
  try {
    answer = await postImages(op, form, inputs.idempotencyKey);
  } catch (err) {
    // An OK answer that is not JSON carries no job id; any other failure is an upload that got no answer.
    throw ToolError.of(err instanceof SyntaxError ? 'NO_IMAGE_ID' : 'UPLOAD_FAILED');
  }
  if (!answer.response.ok) throw ToolError.refusal(answer.error);
  if (typeof answer.data?.id !== 'number') throw ToolError.of('NO_IMAGE_ID');
  return answer.data;
}

const postImages = (op: Operation, form: FormData, idempotencyKey: string | undefined) =>
  api.POST('/api/images', {
    params: {
      // The operation in the address lets the server answer the guest rules before it reads the upload.
      query: { operation: op.id },
      header: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
    },
    // The schema's multipart body is one form per tool; openapi-fetch sends a FormData as it is.
    body: form as never,
  });

/** `POST /api/images/:id/<action>`; no answer at all is PROCESS_FAILED. */
async function postJobAction(id: number, action: 'retry' | 'cancel') {
  const params = { path: { id: String(id) } };
  try {
    return action === 'retry'
      ? await api.POST('/api/images/{id}/retry', { params })
      : await api.POST('/api/images/{id}/cancel', { params });
  } catch {
    throw ToolError.of('PROCESS_FAILED');
  }
}

/** The job an action answered; a refusal as a ToolError. */
function answeredJob(answer: Awaited<ReturnType<typeof postJobAction>>): ImageJob {
  if (!answer.response.ok || !answer.data) throw ToolError.refusal(answer.error);
  return answer.data;
}

/** Another try of a fill job on the same photo and mask (`POST /api/images/:id/retry`; no use is counted). */
export async function retryJob(id: number): Promise<ImageJob> {
  return answeredJob(await postJobAction(id, 'retry'));
}

/** A fill job and its other tries, the first first (`GET /api/images/:id/tries`). */
export async function fetchTries(id: number): Promise<ImageJob[]> {
  const { data } = await api.GET('/api/images/{id}/tries', { params: { path: { id: String(id) } } });
  return data?.tries ?? [];
}

/** `POST /api/images/:id/cancel`: the job as it is now (a job that already finished is simply read again). */
export async function cancelJob(id: number): Promise<ImageJob> {
  const answer = await postJobAction(id, 'cancel');
  return answer.response.status === 409 ? fetchJob(id) : answeredJob(answer);
}

/**
 * Fetches a file as a blob (cookies included); throws on any non-OK answer. Plain fetch, not the typed client: it
 * reads the file addresses a job names (photo, mask, results) as bytes, not a JSON path.
 */
export async function fetchBlob(url: string): Promise<Blob> {
  const res = await fetch(url, { credentials: 'include' });
  if (!res.ok) throw new Error(`${res.status}`);
  return res.blob();
}

/** Hands a blob to the browser as a download with the given file name. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // Give the browser a moment to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The job's progress in whole percent, when its engine reports one. */
export function jobPercent(job: Pick<ImageJob, 'metadata'> | undefined): number | undefined {
  return typeof job?.metadata.percent === 'number' ? Math.round(job.metadata.percent) : undefined;
}

/** Words for the job's stage names (the engines report their own; unknown ones are shown as they come). */
export function stageLabel(job: Pick<ImageJob, 'metadata'>): string {
  const { stage, queuePosition } = job.metadata;
  if (stage === 'queued' || (queuePosition !== undefined && queuePosition > 0)) {
    return queuePosition ? `Waiting in queue (position ${queuePosition})` : 'Waiting in queue';
  }
  if (!stage || stage === 'starting') return 'Starting';
  if (stage === 'done') return 'Finishing';
  return stage.charAt(0).toUpperCase() + stage.slice(1).replace(/[-_]/g, ' ');
}
