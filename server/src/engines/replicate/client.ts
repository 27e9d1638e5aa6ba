/**
 * A small client for the parts of Replicate's HTTP API the provider engine uses: file upload, create / get /
 * cancel a prediction, and fetching its outputs. Every failure leaves as a ProviderError whose message is safe to
 * show a visitor; the details (status, provider text) go to the log only.
 *
 * Not the official `replicate` package (1.4.0): its request loop retries every thrown fetch error, a create
 * included (a dropped connection could start a second paid prediction), and without waiting (its backoff sleeps
 * only for whole-millisecond delays, which its jitter never gives) nor for Retry-After; its `wait()` takes no
 * AbortSignal; its errors carry the provider's text and URL in the message; and it reads answers whole, with no
 * size limit. What it would take over here (URL, headers, JSON body) is a few lines of `call()`.
 */

import type { Logger as ServerLogger } from '../../logging.js';
import { formatModelRef, type ModelRef } from './model-ref.js';
import { ProviderError } from './provider-error.js';
import { isHttpUrl, isObject, providerDetail, readLimited, retryDelay, safeText, sleep } from './responses.js';

/** The part of the server's log (logging.ts) that remote engines use. */
export type Logger = Pick<ServerLogger, 'warn' | 'error'>;

export const consoleLogger: Logger = {
  warn: (obj: unknown, msg?: string) => console.warn(msg ?? '', obj),
  error: (obj: unknown, msg?: string) => console.error(msg ?? '', obj),
};

export type PredictionStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';
const STATUSES: readonly string[] = ['starting', 'processing', 'succeeded', 'failed', 'canceled'];

export interface Prediction {
  id: string;
  status: PredictionStatus;
  model?: string;
  version?: string;
  output?: unknown;
  error?: unknown;
  logs?: string;
  metrics?: { predict_time?: number };
}

export interface ClientOptions {
  token: string;
  baseUrl: string;
  /** First poll delay; it grows by half each poll up to 5x. */
  pollMs: number;
  log?: Logger;
  fetch?: typeof fetch;
}

/** Outputs larger than this are refused rather than buffered. */
const MAX_OUTPUT_BYTES = 100 * 1024 * 1024;
const RETRIES = 3;

export class ReplicateClient {
  private readonly base: URL;
  private readonly log: Logger;
  private readonly fetch: typeof fetch;

  constructor(private readonly opts: ClientOptions) {
    this.base = new URL(opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`);
    this.log = opts.log ?? consoleLogger;
    this.fetch = opts.fetch ?? globalThis.fetch;
  }

  /** Uploads bytes with `POST /v1/files` (multipart field `content`) and returns the URL a prediction can read. */
  async uploadFile(
    data: Buffer,
    contentType: string,
    filename: string,
    signal: AbortSignal,
  ): Promise<{ id: string; url: string }> {
    const form = new FormData();
    form.append('content', new Blob([new Uint8Array(data)], { type: contentType }), filename);
    const body = await this.call('POST', 'v1/files', { form, signal, what: 'file upload' });
    const id = isObject(body) ? body.id : undefined;
    const url = isObject(body) && isObject(body.urls) ? body.urls.get : undefined;
    if (typeof id !== 'string' || typeof url !== 'string' || !isHttpUrl(url)) {
      this.log.error({ body }, 'Replicate file upload answered without a file URL');
      throw new ProviderError('badAnswer');
    }
    return { id, url };
  }

  /** Deletes an uploaded input once the prediction is over; best effort, failures are only logged. */
  async deleteFile(id: string): Promise<void> {
    try {
      await this.call('DELETE', `v1/files/${encodeURIComponent(id)}`, {
        signal: AbortSignal.timeout(10_000),
        what: 'file delete',
        empty: true,
      });
    } catch (err) {
      this.log.warn({ err, id }, 'Could not delete an uploaded input at Replicate');
    }
  }

  /** `POST /v1/predictions` with a version, or the model route `POST /v1/models/{owner}/{name}/predictions`. */
  async createPrediction(model: ModelRef, input: Record<string, unknown>, signal: AbortSignal): Promise<Prediction> {
    const [path, json] = model.version
      ? ['v1/predictions', { version: model.version, input }]
      : [`v1/models/${encodeURIComponent(model.owner)}/${encodeURIComponent(model.name)}/predictions`, { input }];
    return this.prediction(await this.call('POST', path, { json, signal, what: 'create prediction', model }));
  }

  async getPrediction(id: string, signal: AbortSignal): Promise<Prediction> {
    return this.prediction(
      await this.call('GET', `v1/predictions/${encodeURIComponent(id)}`, {
        signal,
        what: 'get prediction',
        retry: true,
      }),
    );
  }

  /** Cancels with its own short deadline (the job's signal is already aborted when this runs); never throws. */
  async cancelPrediction(id: string): Promise<void> {
    try {
      await this.call('POST', `v1/predictions/${encodeURIComponent(id)}/cancel`, {
        signal: AbortSignal.timeout(10_000),
        what: 'cancel prediction',
      });
    } catch (err) {
      this.log.warn({ err, id }, 'Could not cancel a Replicate prediction');
    }
  }

  /** Polls until the prediction ends, waiting pollMs, then 1.5x longer each time up to 5x pollMs. */
  async waitForPrediction(
    first: Prediction,
    signal: AbortSignal,
    onUpdate: (p: Prediction) => void,
  ): Promise<Prediction> {
    let p = first;
    let delay = this.opts.pollMs;
    while (p.status === 'starting' || p.status === 'processing') {
      await sleep(delay, signal);
      delay = Math.min(delay * 1.5, this.opts.pollMs * 5);
      p = await this.getPrediction(p.id, signal);
      onUpdate(p);
    }
    return p;
  }

  /** Downloads one output now (provider URLs expire). The token goes only to the API's own origin. */
  async fetchOutput(url: string, signal: AbortSignal): Promise<Buffer> {
    if (url.startsWith('data:')) return decodeDataUri(url, this.log);
    if (!isHttpUrl(url)) {
      this.log.error({ url }, 'Replicate output is not a URL');
      throw new ProviderError('badAnswer');
    }
    const sameOrigin = new URL(url).origin === this.base.origin;
    const headers: Record<string, string> = sameOrigin ? { authorization: `Bearer ${this.opts.token}` } : {};
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetch(url, { headers, signal });
      } catch (err) {
        if (signal.aborted || attempt >= RETRIES) return this.networkFailure(err, signal, 'fetch output');
        await sleep(this.opts.pollMs * attempt, signal);
        continue;
      }
      if (res.status >= 500 && attempt < RETRIES) {
        await res.body?.cancel();
        await sleep(this.opts.pollMs * attempt, signal);
        continue;
      }
      if (!res.ok) {
        this.log.error({ url, status: res.status }, 'Could not download a Replicate output');
        await res.body?.cancel();
        throw new ProviderError(res.status >= 500 ? 'unavailable' : 'badAnswer');
      }
      return readLimited(res, MAX_OUTPUT_BYTES, () => {
        this.log.error({ url }, 'Replicate output is larger than we accept');
        return new ProviderError('badAnswer');
      });
    }
  }

  private prediction(body: unknown): Prediction {
    if (isObject(body) && typeof body.id === 'string' && body.id && STATUSES.includes(body.status as string)) {
      return body as unknown as Prediction;
    }
    this.log.error({ body }, 'Replicate answered with something that is not a prediction');
    throw new ProviderError('badAnswer');
  }

  /** One API call with the token, JSON or multipart body, retries for 429 (and 5xx when `retry`), error mapping. */
  private async call(
    method: string,
    path: string,
    o: {
      json?: unknown;
      form?: FormData;
      signal: AbortSignal;
      what: string;
      retry?: boolean;
      empty?: boolean;
      model?: ModelRef;
    },
  ): Promise<unknown> {
    const url = new URL(path, this.base);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.opts.token}`,
      accept: 'application/json',
      'user-agent': 'ai-editor',
    };
    if (o.json !== undefined) headers['content-type'] = 'application/json';
    const body = o.json !== undefined ? JSON.stringify(o.json) : o.form;
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetch(url, { method, headers, body, signal: o.signal });
      } catch (err) {
        // A lost connection on a read is worth another try; a create might have gone through, so it is not.
        if (o.retry && !o.signal.aborted && attempt < RETRIES) {
          await sleep(this.opts.pollMs * attempt, o.signal);
          continue;
        }
        return this.networkFailure(err, o.signal, o.what);
      }
      const retryable = res.status === 429 || (o.retry === true && res.status >= 500);
      if (retryable && attempt < RETRIES) {
        const text = await safeText(res);
        await sleep(retryDelay(res, text, this.opts.pollMs * attempt), o.signal);
        continue;
      }
      const text = await safeText(res);
      if (res.ok) {
        if (o.empty || text === '') return undefined;
        try {
          return JSON.parse(text) as unknown;
        } catch {
          this.log.error(
            { what: o.what, status: res.status, text: text.slice(0, 500) },
            'Replicate answer is not JSON',
          );
          throw new ProviderError('badAnswer');
        }
      }
      throw this.httpFailure(res.status, text, o.what, o.model);
    }
  }

  private httpFailure(status: number, text: string, what: string, model?: ModelRef): Error {
    const detail = providerDetail(text);
    const logged = { what, status, detail, model: model && formatModelRef(model) };
    if (status === 401 || status === 403) {
      this.log.error(logged, 'Replicate refused the API token (check REPLICATE_API_TOKEN)');
      return new ProviderError('misconfigured');
    }
    if (status === 404 && model) {
      this.log.error(logged, 'Replicate does not know this model or version (check REPLICATE_MODEL_*)');
      return new ProviderError('misconfigured');
    }
    if (status === 400 || status === 422) {
      this.log.warn(logged, 'Replicate rejected the request');
      return new ProviderError('rejected', detail || `HTTP ${status}`);
    }
    this.log.error(logged, 'Replicate request failed');
    return new ProviderError(status === 429 || status >= 500 ? 'unavailable' : 'badAnswer');
  }

  private networkFailure(err: unknown, signal: AbortSignal, what: string): never {
    if (signal.aborted) throw signal.reason ?? err;
    this.log.error({ err, what }, 'Could not reach Replicate');
    throw new ProviderError('unavailable');
  }
}

/** The last percentage a tqdm-style progress bar printed in the logs (`45%|████`), if any. */
export function percentFromLogs(logs: unknown): number | undefined {
  if (typeof logs !== 'string') return undefined;
  const all = [...logs.matchAll(/(\d{1,3})%\|/g)];
  const last = all.at(-1)?.[1];
  if (last === undefined) return undefined;
  return Math.min(100, Number(last));
}

function decodeDataUri(uri: string, log: Logger): Buffer {
  const m = /^data:[^;,]*(;base64)?,(.*)$/s.exec(uri);
  if (!m?.[1] || m[2] === undefined) {
    log.error({ uri: uri.slice(0, 80) }, 'Replicate output is a data URI we cannot read');
    throw new ProviderError('badAnswer');
  }
  return Buffer.from(m[2], 'base64');
}
