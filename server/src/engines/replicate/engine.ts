/**
 * The Replicate provider engine: runs one operation as a Replicate prediction. It does I/O only, so it runs in the
 * API process rather than an engine host. Inputs are cleaned (orientation applied, metadata dropped) and sent as a
 * data URI when small or through Replicate's file upload otherwise; every output is downloaded at once (provider URLs
 * expire) and re-encoded as a PNG without metadata.
 */
import type { OperationId } from '@ai-editor/core';
import sharp from 'sharp';
import type { EngineSettings } from '../settings.js';
import type { Engine, EngineContext, EngineInput, EngineOutput } from '../types.js';
import { consoleLogger, type Logger, type Prediction, percentFromLogs, ReplicateClient } from './client.js';
import { inpaintInCrop } from './inpaint-crop.js';
import { formatModelRef } from './model-ref.js';
import { type FileSlot, type FileUrls, resolveMapping } from './models.js';
import { ProviderError } from './provider-error.js';

/** Inputs up to this size travel inline as a data URI; larger ones go through `POST /v1/files`. */
export const DATA_URI_LIMIT = 256 * 1024;

export interface ReplicateEngineDeps {
  log?: Logger;
  fetch?: typeof fetch;
}

export function createReplicateEngine(
  operation: OperationId,
  config: EngineSettings,
  deps: ReplicateEngineDeps = {},
): Engine {
  if (!config.replicateApiToken) throw new Error('REPLICATE_API_TOKEN is not set');
  const mapping = resolveMapping(operation, config);
  const log = deps.log ?? consoleLogger;
  const client = new ReplicateClient({
    token: config.replicateApiToken,
    baseUrl: config.replicateApiBaseUrl,
    pollMs: config.replicatePollMs,
    log,
    fetch: deps.fetch,
  });

  async function run(input: EngineInput, ctx: EngineContext): Promise<EngineOutput> {
    const uploaded: string[] = [];
    let prediction: Prediction | undefined;
    try {
      const files: FileUrls = {};
      if (mapping.files.length > 0) ctx.progress({ stage: 'uploading to provider', percent: 2 });
      for (const slot of mapping.files) {
        const bytes = bytesFor(input, slot);
        if (!bytes) {
          if (slot === 'mask') continue;
          throw new Error(`The ${slot === 'image2' ? 'second photo' : 'photo'} is missing`);
        }
        files[slot] = await toProviderUrl(client, bytes, slot, ctx.signal, uploaded);
      }

      prediction = await client.createPrediction(mapping.model, mapping.buildInput(files, input.params), ctx.signal);
      ctx.progress({ stage: 'queued at provider', percent: 5 });
      const created = prediction;
      const done = await client.waitForPrediction(created, ctx.signal, (p) => {
        prediction = p;
        reportProgress(p, ctx);
      });

      if (done.status === 'failed') {
        log.warn({ id: done.id, error: done.error }, 'Replicate prediction failed');
        throw new ProviderError('rejected', firstLine(done.error) || 'the model could not process this input');
      }
      if (done.status === 'canceled') throw new ProviderError('canceled');

      const urls = outputUrls(done.output);
      if (urls.length === 0) {
        log.error({ id: done.id, output: done.output }, 'Replicate prediction succeeded without image outputs');
        throw new ProviderError('badAnswer');
      }
      ctx.progress({ stage: 'downloading results', percent: 95 });
      const images = await Promise.all(urls.map((u) => client.fetchOutput(u, ctx.signal).then((b) => toPng(b, log))));
      return {
        images,
        metadata: {
          provider: 'replicate',
          predictionId: done.id,
          model: done.model ?? `${mapping.model.owner}/${mapping.model.name}`,
          version: done.version ?? mapping.model.version,
          ...(done.metrics?.predict_time !== undefined ? { predictTime: done.metrics.predict_time } : {}),
        },
      };
    } catch (err) {
      if (ctx.signal.aborted) {
        if (prediction && (prediction.status === 'starting' || prediction.status === 'processing')) {
          await client.cancelPrediction(prediction.id);
        }
        log.warn({ id: prediction?.id, model: formatModelRef(mapping.model) }, 'Replicate prediction timed out');
        throw new ProviderError('timedOut');
      }
      throw err;
    } finally {
      // Our uploads are the visitor's photos: don't leave them at the provider longer than needed.
      await Promise.all(uploaded.map((id) => client.deleteFile(id)));
    }
  }

  // Inpainting models work at 512 px: they get a crop around the mask and answer only inside it.
  return { run: operation === 'image-inpainting' ? inpaintInCrop(run) : run };
}

function bytesFor(input: EngineInput, slot: FileSlot): Buffer | undefined {
  return slot === 'image' ? input.image : slot === 'image2' ? input.image2 : input.mask;
}

/** Applies EXIF orientation and drops metadata (GPS, camera) before the photo leaves our server. */
async function cleanInput(bytes: Buffer): Promise<{ data: Buffer; type: string; ext: string }> {
  const { format } = await sharp(bytes).metadata();
  const pipeline = sharp(bytes, { failOn: 'error' }).rotate();
  if (format === 'jpeg')
    return { data: await pipeline.jpeg({ quality: 95 }).toBuffer(), type: 'image/jpeg', ext: 'jpg' };
  return { data: await pipeline.png().toBuffer(), type: 'image/png', ext: 'png' };
}

async function toProviderUrl(
  client: ReplicateClient,
  bytes: Buffer,
  slot: FileSlot,
  signal: AbortSignal,
  uploaded: string[],
): Promise<string> {
  const { data, type, ext } = await cleanInput(bytes);
  if (data.length < DATA_URI_LIMIT) return `data:${type};base64,${data.toString('base64')}`;
  const file = await client.uploadFile(data, type, `${slot}.${ext}`, signal);
  uploaded.push(file.id);
  return file.url;
}

/** Models answer one URL or a list of them. */
function outputUrls(output: unknown): string[] {
  const list = Array.isArray(output) ? output : output == null ? [] : [output];
  if (!list.every((u): u is string => typeof u === 'string' && u !== '')) return [];
  return list;
}

async function toPng(bytes: Buffer, log: Logger): Promise<Buffer> {
  try {
    return await sharp(bytes, { failOn: 'error' }).rotate().png().toBuffer();
  } catch (err) {
    log.error({ err, size: bytes.length }, 'Replicate output is not an image we can read');
    throw new ProviderError('badAnswer');
  }
}

/** starting = waiting for a machine; processing = running, with the model's own progress bar when it prints one. */
function reportProgress(p: Prediction, ctx: EngineContext): void {
  if (p.status === 'starting') ctx.progress({ stage: 'queued at provider', percent: 5 });
  else if (p.status === 'processing') {
    const pct = percentFromLogs(p.logs);
    ctx.progress({ stage: 'running', percent: pct === undefined ? 10 : Math.round(10 + pct * 0.8) });
  }
}

function firstLine(error: unknown): string {
  if (error == null) return '';
  const text = typeof error === 'string' ? error : JSON.stringify(error);
  return (text.split('\n').find((l) => l.trim() !== '') ?? '').trim().slice(0, 200);
}
