/**
 * Reading Replicate's HTTP answers with care (client.ts): within a size limit, the error's one readable line, the
 * wait it asks for before another try; and the wait itself, cut short when the job is aborted.
 */

import { ProviderError } from './provider-error.js';

/** Provider answers (JSON) larger than this are not ours to read. */
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

/** Replicate errors are `{ title, detail, status }` (422 adds `invalid_fields`); keep one readable line. */
export function providerDetail(text: string): string {
  let detail = text;
  try {
    const body = JSON.parse(text) as unknown;
    if (isObject(body)) detail = String(body.detail ?? body.title ?? text);
  } catch {
    // not JSON: use the text itself
  }
  return detail.replace(/\s+/g, ' ').trim().slice(0, 300);
}

export function retryDelay(res: Response, text: string, fallback: number): number {
  let seconds = Number(res.headers.get('retry-after'));
  try {
    const body = JSON.parse(text) as unknown;
    if (isObject(body) && typeof body.retry_after === 'number') seconds = body.retry_after;
  } catch {
    // no body hint
  }
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, 30_000) : fallback;
}

export async function safeText(res: Response): Promise<string> {
  try {
    return (await readLimited(res, MAX_ANSWER_BYTES, () => new ProviderError('badAnswer'))).toString('utf8');
  } catch (err) {
    if (err instanceof ProviderError) throw err; // too large; a connection lost mid-answer reads as empty
    return '';
  }
}

export async function readLimited(res: Response, limit: number, tooBig: () => Error): Promise<Buffer> {
  if (Number(res.headers.get('content-length')) > limit) {
    await res.body?.cancel();
    throw tooBig();
  }
  if (!res.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > limit) throw tooBig();
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** setTimeout that rejects with the signal's reason when the job is aborted. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
