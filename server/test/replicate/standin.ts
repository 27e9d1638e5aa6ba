/**
 * A local stand-in for the Replicate endpoints the provider engine uses, so that no test reaches the internet.
 * It checks the token, validates every prediction input against the model's committed input schema (unknown
 * fields and out-of-range values answer 422 like Replicate), walks each prediction through starting → processing →
 * succeeded / failed / canceled one poll at a time, serves its output files itself (each file once: it is deleted
 * after the first download, as provider URLs expire) and records every request it receives.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import multipart from '@fastify/multipart';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import sharp from 'sharp';

const SCHEMA_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'schemas');

export interface SchemaFile {
  model: string;
  version: string;
  source: string[];
  input: Record<string, unknown>;
  output: { type: 'array' | 'string' };
}

export function loadSchemas(dir = SCHEMA_DIR): SchemaFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as SchemaFile);
}

/** What the next prediction does. Unset fields take the defaults noted. */
export interface Script {
  /** GETs answered with 'starting' before 'processing' (1). */
  startingPolls?: number;
  /** GETs answered with 'processing' before the outcome (2). */
  processingPolls?: number;
  /** 'hang' keeps it processing until cancelled ('succeeded'). */
  outcome?: 'succeeded' | 'failed' | 'hang';
  /** The error text of a failed prediction. */
  error?: string;
  /** Logs appended on each processing poll. */
  logs?: string[];
  /** Files the prediction outputs, served by the stand-in (one 8x8 PNG). */
  files?: { data: Buffer; ext: string }[];
  /** Replaces the output value entirely (for malformed answers). */
  output?: unknown;
  /** Replaces the answer to the create call (for malformed answers). */
  createAnswer?: { status: number; body: string; contentType: string };
}

export interface RecordedRequest {
  /** Date.now() when it arrived. */
  at: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  parts?: { field: string; filename: string; mimetype: string; data: Buffer }[];
}

interface PredictionState {
  id: string;
  model: string;
  version: string;
  input: unknown;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';
  polls: number;
  logs: string;
  script: Script;
  output?: unknown;
  error?: string;
}

export interface Standin {
  url: string;
  requests: RecordedRequest[];
  /** Scripts for the next predictions, used in order; afterwards the default script applies. */
  script(...s: Script[]): void;
  /** Forgets recorded requests and unused scripts (between tests). */
  reset(): void;
  predictions: Map<string, PredictionState>;
  /** Uploaded inputs still held (deleted ones are gone). */
  files: Map<string, { data: Buffer; type: string }>;
  /** Output files not yet downloaded. */
  outputs: Map<string, Buffer>;
  close(): Promise<void>;
}

/** A solid-colour image, for inputs and outputs in tests. */
export function makeImage(
  width: number,
  height: number,
  format: 'png' | 'jpeg' | 'webp' = 'png',
  colour = { r: 200, g: 120, b: 40 },
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .toFormat(format)
    .toBuffer();
}

export async function startStandin(opts: { token: string; schemas?: SchemaFile[] }): Promise<Standin> {
  const schemas = opts.schemas ?? loadSchemas();
  const defaultOutput = await makeImage(8, 8);
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addFormat('uri', (s: string) => /^(https?:\/\/\S+|data:[\w/+.-]+;base64,[A-Za-z0-9+/=]+)$/.test(s));
  const byVersion = new Map<string, { schema: SchemaFile; validate: ValidateFunction }>();
  const byModel = new Map<string, string>();
  for (const schema of schemas) {
    // Like Replicate, an input the schema does not name is an error.
    const validate = ajv.compile({ ...schema.input, additionalProperties: false });
    byVersion.set(schema.version, { schema, validate });
    byModel.set(schema.model, schema.version);
  }

  const requests: RecordedRequest[] = [];
  const queue: Script[] = [];
  const predictions = new Map<string, PredictionState>();
  const files = new Map<string, { data: Buffer; type: string }>();
  const outputs = new Map<string, Buffer>();
  let base = '';

  const app = Fastify({ bodyLimit: 20 * 1024 * 1024 });
  await app.register(multipart, { limits: { fileSize: 50 * 1024 * 1024 } });

  app.addHook('preHandler', async (req) => {
    const rec: RecordedRequest = { at: Date.now(), method: req.method, path: req.url, headers: { ...req.headers } };
    if (!req.isMultipart()) rec.body = req.body;
    requests.push(rec);
    (req as FastifyRequest & { rec?: RecordedRequest }).rec = rec;
  });

  const authorized = (req: FastifyRequest, reply: FastifyReply): boolean => {
    const auth = req.headers.authorization;
    if (auth === `Bearer ${opts.token}` || auth === `Token ${opts.token}`) return true;
    void reply.code(401).send({
      title: 'Unauthenticated',
      detail: 'You did not pass a valid authentication token',
      status: 401,
    });
    return false;
  };

  const view = (p: PredictionState) => ({
    id: p.id,
    model: p.model,
    version: p.version,
    input: p.input,
    logs: p.logs,
    output: p.status === 'succeeded' ? p.output : null,
    error: p.status === 'failed' ? p.error : null,
    status: p.status,
    created_at: new Date().toISOString(),
    urls: {
      get: `${base}/v1/predictions/${p.id}`,
      cancel: `${base}/v1/predictions/${p.id}/cancel`,
    },
    ...(p.status === 'succeeded' ? { metrics: { predict_time: 1.5 } } : {}),
  });

  const invalid = (reply: FastifyReply, fields: { field: string; description: string }[]) =>
    reply.code(422).send({
      title: 'Input validation failed',
      detail: fields.map((f) => `- ${f.field}: ${f.description}`).join('\n'),
      status: 422,
      invalid_fields: fields.map((f) => ({ type: 'invalid', ...f })),
    });

  const create = async (req: FastifyRequest, reply: FastifyReply, version: string | undefined) => {
    if (!authorized(req, reply)) return;
    const script = queue.shift() ?? {};
    if (script.createAnswer) {
      return reply
        .code(script.createAnswer.status)
        .type(script.createAnswer.contentType)
        .send(script.createAnswer.body);
    }
    const body = req.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object' || typeof body.input !== 'object' || body.input === null) {
      return invalid(reply, [{ field: 'input', description: 'input is required' }]);
    }
    const allowed = new Set(['input', 'webhook', 'webhook_events_filter', 'stream', ...(version ? [] : ['version'])]);
    const extra = Object.keys(body).filter((k) => !allowed.has(k));
    if (extra.length)
      return invalid(
        reply,
        extra.map((k) => ({ field: k, description: 'Additional property not allowed' })),
      );
    const v = version ?? String(body.version);
    const entry = byVersion.get(v);
    if (!entry) {
      return reply.code(422).send({
        title: 'Invalid version',
        detail: "The specified version does not exist (or perhaps you don't have permission to use it?)",
        status: 422,
      });
    }
    if (!entry.validate(body.input)) return invalid(reply, (entry.validate.errors ?? []).map(describe));
    const missing = missingFiles(body.input, base, files);
    if (missing.length)
      return invalid(
        reply,
        missing.map((u) => ({ field: 'input', description: `cannot read ${u}` })),
      );
    const p: PredictionState = {
      id: randomUUID().replace(/-/g, '').slice(0, 26),
      model: entry.schema.model,
      version: v,
      input: body.input,
      status: 'starting',
      polls: 0,
      logs: '',
      script,
    };
    predictions.set(p.id, p);
    return reply.code(201).send(view(p));
  };

  app.post('/v1/predictions', (req, reply) => create(req, reply, undefined));
  app.post<{ Params: { owner: string; name: string } }>('/v1/models/:owner/:name/predictions', (req, reply) => {
    const version = byModel.get(`${req.params.owner}/${req.params.name}`);
    if (!version) {
      if (!authorized(req, reply)) return;
      return reply
        .code(404)
        .send({ title: 'Not found', detail: 'The requested resource could not be found.', status: 404 });
    }
    return create(req, reply, version);
  });

  app.get<{ Params: { id: string } }>('/v1/predictions/:id', (req, reply) => {
    if (!authorized(req, reply)) return;
    const p = predictions.get(req.params.id);
    if (!p) return reply.code(404).send({ title: 'Not found', detail: 'Not found', status: 404 });
    advance(p);
    return reply.send(view(p));
  });

  app.post<{ Params: { id: string } }>('/v1/predictions/:id/cancel', (req, reply) => {
    if (!authorized(req, reply)) return;
    const p = predictions.get(req.params.id);
    if (!p) return reply.code(404).send({ title: 'Not found', detail: 'Not found', status: 404 });
    if (p.status === 'starting' || p.status === 'processing') p.status = 'canceled';
    return reply.send(view(p));
  });

  app.post('/v1/files', async (req, reply) => {
    if (!authorized(req, reply)) return;
    const rec = (req as FastifyRequest & { rec?: RecordedRequest }).rec;
    const parts: RecordedRequest['parts'] = [];
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        parts.push({
          field: part.fieldname,
          filename: part.filename,
          mimetype: part.mimetype,
          data: await part.toBuffer(),
        });
      }
    }
    if (rec) rec.parts = parts;
    const content = parts.find((p) => p.field === 'content');
    if (!content) return invalid(reply, [{ field: 'content', description: 'content is required' }]);
    const id = randomUUID();
    files.set(id, { data: content.data, type: content.mimetype });
    return reply.code(201).send({
      id,
      name: content.filename,
      content_type: content.mimetype,
      size: content.data.length,
      urls: { get: `${base}/v1/files/${id}` },
    });
  });

  app.get<{ Params: { id: string } }>('/v1/files/:id', (req, reply) => {
    if (!authorized(req, reply)) return;
    const f = files.get(req.params.id);
    if (!f) return reply.code(404).send({ title: 'Not found', detail: 'Not found', status: 404 });
    return reply.type(f.type).send(f.data);
  });

  app.delete<{ Params: { id: string } }>('/v1/files/:id', (req, reply) => {
    if (!authorized(req, reply)) return;
    if (!files.delete(req.params.id)) return reply.code(404).send({ title: 'Not found', status: 404 });
    return reply.code(204).send();
  });

  // Output delivery needs no token (like replicate.delivery) and works once.
  app.get<{ Params: { id: string; file: string } }>('/delivery/:id/:file', (req, reply) => {
    const key = `${req.params.id}/${req.params.file}`;
    const data = outputs.get(key);
    if (!data) return reply.code(404).send('expired');
    outputs.delete(key);
    return reply.type('application/octet-stream').send(data);
  });

  function advance(p: PredictionState): void {
    if (p.status !== 'starting' && p.status !== 'processing') return;
    p.polls++;
    const { startingPolls = 1, processingPolls = 2, outcome = 'succeeded' } = p.script;
    if (p.polls <= startingPolls) return;
    if (p.polls <= startingPolls + processingPolls || outcome === 'hang') {
      p.status = 'processing';
      const line = p.script.logs?.[p.polls - startingPolls - 1];
      if (line) p.logs += `${line}\n`;
      return;
    }
    if (outcome === 'failed') {
      p.status = 'failed';
      p.error = p.script.error ?? 'Prediction failed';
      return;
    }
    const list = p.script.files ?? [{ data: defaultOutput, ext: 'png' }];
    const urls = list.map((f, i) => {
      outputs.set(`${p.id}/out-${i}.${f.ext}`, f.data);
      return `${base}/delivery/${p.id}/out-${i}.${f.ext}`;
    });
    const schema = byVersion.get(p.version)?.schema;
    p.output = 'output' in p.script ? p.script.output : schema?.output.type === 'string' ? urls[0] : urls;
    p.status = 'succeeded';
  }

  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('stand-in did not get a port');
  base = `http://127.0.0.1:${addr.port}`;

  return {
    url: base,
    requests,
    script: (...s) => queue.push(...s),
    reset: () => {
      requests.length = 0;
      queue.length = 0;
    },
    predictions,
    files,
    outputs,
    close: () => app.close(),
  };
}

/** Replicate-style field messages from ajv errors. */
function describe(e: ErrorObject): { field: string; description: string } {
  const field = `input${e.instancePath.replace(/\//g, '.')}`;
  if (e.keyword === 'additionalProperties') {
    return { field: `input.${String(e.params.additionalProperty)}`, description: 'Additional property not allowed' };
  }
  if (e.keyword === 'enum') {
    const list = (e.params.allowedValues as unknown[]).join(', ');
    return { field, description: `${field.slice(6)} must be one of the following: ${list}` };
  }
  if (e.keyword === 'required') {
    return {
      field: `input.${String(e.params.missingProperty)}`,
      description: `${String(e.params.missingProperty)} is required`,
    };
  }
  return { field, description: `${field.slice(6)} ${e.message ?? 'is invalid'}` };
}

/** Inputs that point at this stand-in's file store must name a file it still holds. */
function missingFiles(input: unknown, base: string, files: Map<string, unknown>): string[] {
  const missing: string[] = [];
  for (const v of Object.values(input as Record<string, unknown>)) {
    if (typeof v === 'string' && v.startsWith(`${base}/v1/files/`) && !files.has(v.slice(`${base}/v1/files/`.length))) {
      missing.push(v);
    }
  }
  return missing;
}
