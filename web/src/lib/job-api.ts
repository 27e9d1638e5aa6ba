import { type ErrorCode, errorMessage, errorTitle, type ImageJob, isErrorCode } from '@ai-editor/core';
import { api } from './api';

/** A failure to show as a toast: the catalogue title of its code ('Feature Restricted', ...) or 'Error'. */
export class ToolError extends Error {
  /** The HTTP status of the answer that failed, where there was one (a job page tells 404 and 410 apart). */
  status?: number;
  /** The catalogue code of the refusal it stands for, where the server named one (refusal). */
  code?: ErrorCode;
  constructor(
    readonly title: string,
    message: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
  static of(code: ErrorCode, vars?: Record<string, string | number>): ToolError {
    return new ToolError(errorTitle(code), errorMessage(code, vars));
  }
  /** An API refusal's body as a ToolError: its code's title ('Error' without one), its message or PROCESS_FAILED's. */
  static refusal(body: { code?: unknown; message?: string } | undefined): ToolError {
    const code = isErrorCode(body?.code) ? body.code : undefined;
    return Object.assign(new ToolError(errorTitle(code), body?.message || errorMessage('PROCESS_FAILED')), { code });
  }
  /** Any failure as the page shows it: a ToolError as it is, anything else PROCESS_FAILED. */
  static from(err: unknown): ToolError {
    return err instanceof ToolError ? err : ToolError.of('PROCESS_FAILED');
  }
}

/** Polled status (queries.job); any failure to read it is 'Failed to fetch image status'. */
export async function fetchJob(id: number | string, signal?: AbortSignal): Promise<ImageJob> {
  let answer: Awaited<ReturnType<typeof getJob>>;
  try {
    answer = await getJob(id, signal);
  } catch {
    throw ToolError.of('STATUS_FETCH_FAILED');
  }
  if (answer.data) return answer.data;
  throw Object.assign(ToolError.of('STATUS_FETCH_FAILED'), { status: answer.response.status });
}

const getJob = (id: number | string, signal?: AbortSignal) =>
  api.GET('/api/images/{id}', { params: { path: { id: String(id) } }, signal });

/**
 * Follows a job by push (`GET /api/images/:id/events`, Server-Sent Events): `onJob` gets the job at each change,
 * and the stream is closed once the job has ended. `onLost` is called (once) when the stream fails or cannot be
 * opened, so that the caller polls instead. Returns a function that closes the stream.
 */
export function streamJob(id: number, onJob: (job: ImageJob) => void, onLost: () => void): () => void {
  if (typeof EventSource === 'undefined') {
    onLost();
    return () => {};
  }
  // EventSource, not the typed client: a stream of events, which openapi-fetch reads as one answer.
  const source = new EventSource(`/api/images/${id}/events`, { withCredentials: true });
  source.onmessage = (event) => {
    let job: ImageJob;
    try {
      job = JSON.parse(event.data) as ImageJob;
    } catch {
      return;
    }
    onJob(job);
    if (job.status !== 'pending') source.close();
  };
  // The browser would reconnect on its own; polling takes over instead, which also reports a gone job.
  source.onerror = () => {
    source.close();
    onLost();
  };
  return () => source.close();
}
