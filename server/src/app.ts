import { randomUUID } from 'node:crypto';
import { AppError, NO_CONTROL_CHARACTERS, NO_SUCH_JOB, NO_SUCH_KEY, type OperationId } from '@ai-editor/core';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { type DatabaseHandle, openDatabase } from './adapters/db.js';
import type { EnginePool } from './adapters/engine-pool.js';
import { type HostBoard, localHostBoard, redisHostBoard } from './adapters/host-board.js';
import { LIMIT_CODES, Metrics, type MetricsServer, serveMetrics } from './adapters/metrics.js';
import type { JobQueue } from './adapters/queue.js';
import { selectJobChanges, selectQueue, selectRateLimiters, selectStorage, workerName } from './adapters/select.js';
import type { Storage } from './adapters/storage.js';
import type { Config } from './config.js';
import { createEngineRegistry } from './engines/registry.js';
import { AdminRepository } from './repositories/admin.js';
import { ApiKeyRepository } from './repositories/api-keys.js';
import { ContactMessageRepository } from './repositories/contact-messages.js';
import { IdempotencyKeyRepository } from './repositories/idempotency-keys.js';
import { ImageRepository } from './repositories/images.js';
import { WebhookDeliveryRepository } from './repositories/webhook-deliveries.js';
import { drainBody, limitBodyTime, registerJsonParser } from './request-bodies.js';
import { adminRoutes } from './routes/admin.js';
import { clientConfigRoutes } from './routes/client-config.js';
import { contactRoutes } from './routes/contact.js';
import { healthRoutes, healthTokenCheck } from './routes/health.js';
import { healthProbeRoutes } from './routes/health-probes.js';
import { imageRoutes } from './routes/images.js';
import { jobEventRoutes } from './routes/job-events.js';
import { keyRoutes } from './routes/keys.js';
import { libraryRoutes } from './routes/library.js';
import { registerOpenApi } from './routes/openapi.js';
import { recommendationRoutes } from './routes/recommendations.js';
import { selectObjectRoutes } from './routes/select-object.js';
import { sessionRoutes } from './routes/session.js';
import { registerAccountGuard, registerIdentity, registerSessions } from './routes/visitor.js';
import { webRoutes } from './routes/web.js';
import { registerSameOrigin } from './same-origin.js';
import { registerSecurityHeaders } from './security-headers.js';
import { AccountGuard } from './services/account-guard.js';
import { AdminService } from './services/admin.js';
import { assertAuthConfig, setUpAuth } from './services/auth/index.js';
import { IdempotencyService } from './services/idempotency.js';
import { describeJob } from './services/job-hints.js';
import { JobRunner } from './services/job-runner.js';
import { imageView } from './services/job-view.js';
import { JobWatch } from './services/job-watch.js';
import { JobService } from './services/jobs.js';
import { LibraryService } from './services/library.js';
import { PreparedPhotos } from './services/prepared-photos.js';
import { RecommendationService } from './services/recommendations.js';
import { RetentionService } from './services/retention.js';
import { sessionSecret } from './services/sessions.js';
import { SubmitJob } from './services/submit-job.js';
import { WebhookService, watchJobsForWebhooks } from './services/webhooks.js';
import { SHUTDOWN_DEADLINE_MS, within } from './shutdown.js';

/** A streamed job is read again this often even without a notice (queue position; a notice lost with Redis). */
const JOB_REFRESH_MS = 5_000;

/** JSON (and text) bodies; uploads have their own limit (MAX_UPLOAD_BYTES). */
const BODY_LIMIT_BYTES = 1024 * 1024;

export interface AppOptions {
  config: Config;
  /** Tests register their own engine modules here (e.g. one that crashes); production never does. */
  localEngineOverrides?: Partial<Record<OperationId, string>>;
  logger?: FastifyServerOptions['logger'];
}

export interface App {
  app: FastifyInstance;
  jobs: JobService;
  retention: RetentionService;
  database: DatabaseHandle;
  storage: Storage;
  queue: JobQueue;
  /** Absent when this process runs no engines (a Redis queue with worker processes). */
  pool?: EnginePool;
  metrics: Metrics;
  /** Where `/metrics` is served (METRICS_PORT); absent when off. */
  metricsUrl?: string;
  close(): Promise<void>;
}

/** Wires the adapters, services and routes of one API process on the embedded defaults. */
export async function buildApp(opts: AppOptions): Promise<App> {
  const { config } = opts;
  // Refuse to start on an unsafe sign-in configuration before opening anything.
  assertAuthConfig(config.auth);
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    // A connection with nothing moving for this long is closed (idle keep-alive sockets included).
    connectionTimeout: config.idleTimeoutMs,
    // A sane incoming x-request-id is kept (a proxy's, so one id follows the request), else one is made.
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // The router's own refusals (a broken percent-encoding, a path segment past its length) in the catalogue's shape.
    frameworkErrors: (err, _request, reply) => {
      const reason = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'The address is too long' : 'The address is not valid';
      return (reply as FastifyReply).code(400).send(new AppError('BAD_REQUEST', { reason }).toBody());
    },
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  await registerSecurityHeaders(app, config);
  limitBodyTime(app, config.requestTimeoutMs);
  registerSameOrigin(app, config.publicOrigins);
  registerJsonParser(app);
  const database = await openDatabase(config);
  const storage = selectStorage(config);
  const swept = await storage.sweepPartial?.();
  if (swept) app.log.warn({ files: swept }, 'removed partial files left by writes cut short');
  const registry = createEngineRegistry(config, {
    log: app.log,
    localOverrides: opts.localEngineOverrides,
  });
  const images = new ImageRepository(database.db);
  const metrics = new Metrics({ queueStats: () => queue.stats() });
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpRequest(
      request.routeOptions.url ?? 'unmatched',
      request.method,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
  // Embedded queue and engine pool by default; BullMQ (and worker processes) with REDIS_URL (adapters/select.ts).
  const { queue, pool } = selectQueue(config, {
    describe: (id) => describeJob(images, id),
    log: app.log,
    registry,
    onHostEnded: (cause, replaced) => metrics.hostEnded(cause, replaced),
  });
  const changes = selectJobChanges(config, app.log);
  const jobs = new JobService({ images, storage, registry, queue, config, log: app.log, changes });
  // Where this process runs engines, the queue hands its jobs to the runner.
  const runner = new JobRunner({ jobs, images, storage, registry, pool, config, log: app.log });
  if (pool) queue.consume(runner);
  jobs.events.on('completed', (row) => metrics.jobEnded(row));
  jobs.events.on('failed', (row) => metrics.jobEnded(row));

  // Routes validate and serialise with the zod schemas of core/src/api, which also make /api/openapi.json.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await registerOpenApi(app);
  await app.register(fastifyCookie, { secret: sessionSecret(config.sessionSecret, config.dataDir) });
  await app.register(fastifyMultipart, {
    limits: { fileSize: config.maxUploadBytes, files: 3, fields: 40, fieldSize: 64 * 1024, parts: 45 },
  });
  registerSessions(app);
  app.setErrorHandler(errorHandler(config.maxUploadBytes, metrics));
  const limiters = selectRateLimiters(config, app.log);
  const auth = await setUpAuth({
    config,
    guestLimiter: limiters.guests,
    db: database.db,
    images,
    jobs,
    log: app.log,
  });
  registerIdentity(app, auth.identify);

  const adminRepo = new AdminRepository(database.db);
  const { redisUrl, queuePrefix } = config.scaleOut;
  const hosts: HostBoard = redisUrl
    ? redisHostBoard(redisUrl, queuePrefix, workerName(), pool)
    : localHostBoard(workerName(), pool);
  const admin = new AdminService({ repo: adminRepo, jobs, registry, hosts, pool, log: app.log });
  await admin.start();
  const accountGuard = new AccountGuard({ admin, repo: adminRepo });
  registerAccountGuard(app, accountGuard);
  adminRoutes(app, { admin, auth });

  const idempotency = new IdempotencyService({ keys: new IdempotencyKeyRepository(database.db) });
  const webhooks = new WebhookService({
    deliveries: new WebhookDeliveryRepository(database.db),
    keys: new ApiKeyRepository(database.db),
    view: (row) => imageView(row, jobs),
    allowPrivate: config.webhookAllowPrivate,
    log: app.log,
  });
  watchJobsForWebhooks(jobs, webhooks, app.log);
  const submit = new SubmitJob({
    jobs,
    limits: config,
    admission: auth.rules,
    idempotency,
    checkWebhook: (url) => webhooks.checkUrl(url),
    allowance: (uid, operation) => auth.usage.allowance(uid, operation),
  });
  imageRoutes(app, { jobs, submit, storage, admission: auth.rules, beforeDownload: auth.rules.beforeDownload });
  keyRoutes(app, { apiKeys: auth.apiKeys, jobs, webhooks });
  jobEventRoutes(app, { jobs, watch: new JobWatch({ jobs, changes, log: app.log, refreshMs: JOB_REFRESH_MS }) });
  // Deleted photos are dropped from what the engine hosts keep about them (Select object's answers, which also
  // expire 10 minutes after the photo's last click, long before its files do).
  const forgetPhoto = (key: string) => pool?.forget(key);
  const library = new LibraryService({
    images,
    storage,
    log: app.log,
    retentionHours: config.retentionHours,
    forgetPhoto,
  });
  libraryRoutes(app, { jobs, library, retentionHours: config.retentionHours });
  sessionRoutes(app, auth, accountGuard);
  selectObjectRoutes(app, {
    jobs,
    pool,
    limits: config,
    admission: auth.rules,
    timeoutMs: config.jobTimeoutMs,
    prepared: new PreparedPhotos(),
  });
  const recommendations = new RecommendationService({
    jobs,
    storage,
    pool,
    log: app.log,
    limiters: { visitor: limiters.analysisVisitor, address: limiters.analysisAddress },
  });
  recommendationRoutes(app, { recommendations });
  healthRoutes(app, {
    database,
    storage,
    queue,
    registry,
    pool,
    storageMinFreeBytes: config.storageMinFreeBytes,
    isAdmin: healthTokenCheck(config.healthDetailsToken),
  });
  healthProbeRoutes(app, { database, storage, queue, hosts });
  clientConfigRoutes(app, config);
  const contactMessages = new ContactMessageRepository(database.db);
  contactRoutes(app, { limiter: limiters.contact, save: (message) => contactMessages.save(message) });
  await webRoutes(app, config.webDistDir);

  const retention = new RetentionService({
    images,
    storage,
    log: app.log,
    retentionHours: config.retentionHours,
    idempotency,
  });
  const sweep = () => retention.sweep().catch((err) => app.log.error({ err }, 'retention sweep failed'));
  const sweepTimer = setInterval(sweep, config.sweepIntervalMs);
  sweepTimer.unref();

  await app.ready();
  const orphans = await retention.sweepOrphanResults();
  if (orphans) app.log.warn({ files: orphans }, 'removed result files that no job names');
  await jobs.resumePending();
  webhooks.start();
  void sweep();
  // Prometheus metrics on their own listener, never on the public port.
  let metricsServer: MetricsServer | undefined;
  if (config.metrics.port) metricsServer = await serveMetrics(metrics, config.metrics.port, config.metrics.host);

  return {
    app,
    jobs,
    retention,
    database,
    storage,
    queue,
    pool,
    metrics,
    metricsUrl: metricsServer?.url,
    async close() {
      clearInterval(sweepTimer);
      // Every step has a time limit, and together they fit the deadline main.ts enforces (SHUTDOWN_DEADLINE_MS).
      // Requests still open after a second are cut; running jobs get their grace meanwhile (the Auth emulator
      // exports its accounts too); the jobs still running after it stay pending and run again at the next start.
      admin.close();
      // After the grace: the hosts are ended, the queue, webhooks and database closed (up to 2 s together), 1 s
      // before the deadline, as timers fire late on a loaded machine.
      const grace = Math.min(config.shutdownGraceMs, SHUTDOWN_DEADLINE_MS - 3000);
      const http = within(app.close(), 1000).then((r) => r === 'timed out' && app.server.closeAllConnections());
      await Promise.all([
        http,
        within(auth.close(), grace),
        within(limiters.close(), 1000),
        within(Promise.all([metricsServer?.close(), hosts.close()]), 1000),
        within(runner.stopAfter(queue.close(), grace), grace + 500),
      ]);
      await within(webhooks.stop(), 500);
      await within(changes.close(), 500);
      await within(database.close(), 500);
    },
  };
}

/** An incoming request id is kept when it is this plain and short. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

type RequestError = Error & {
  code?: string;
  statusCode?: number;
  validation?: { message?: string; instancePath?: string }[];
};

/** The catalogue's answer for an error a route, a hook or Fastify itself raised; undefined for a fault of ours. */
export function catalogueError(err: RequestError): AppError | undefined {
  if (err instanceof AppError) return err;
  if (err.code === 'ENOSPC' || err.code === 'EDQUOT') return new AppError('OUT_OF_STORAGE');
  // An id past what the column holds names no job: the 404 of a missing one, on every route that takes an id.
  if (err.validation?.some((v) => v.message === NO_SUCH_JOB)) return new AppError('NOT_FOUND');
  if (err.validation?.some((v) => v.message === NO_SUCH_KEY)) return new AppError('API_KEY_NOT_FOUND');
  // A control character in the address or the query string is named like one in a body.
  const control = err.validation?.find((v) => v.message === NO_CONTROL_CHARACTERS);
  if (control) {
    return new AppError('INVALID_PARAMETER', {
      field: control.instancePath?.slice(1) ?? '',
      reason: NO_CONTROL_CHARACTERS,
    });
  }
  // busboy cannot search for a boundary over 256 characters (RFC 2046 allows 70).
  if (err.message.startsWith('The needle cannot have a length bigger than')) {
    return new AppError('BAD_REQUEST', {
      reason: 'The multipart boundary is too long (RFC 2046 allows at most 70 characters)',
    });
  }
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new AppError('BODY_TOO_LARGE', { limit: `${BODY_LIMIT_BYTES / 1024 ** 2} MB` });
  if (isMalformedMultipart(err)) return new AppError('MALFORMED_UPLOAD');
  return undefined;
}

/** What busboy (through @fastify/multipart) throws for a form that ends early or breaks the format. */
function isMalformedMultipart(err: RequestError): boolean {
  return (
    /^(Unexpected end of (form|multipart data)|Malformed part header|Multipart: Boundary not found|Part terminated early)/.test(
      err.message,
    ) || err.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE_BOUNDARY'
  );
}

/**
 * Every error leaves as `{ code, message }` from the catalogue, with its status (faults of ours, 500, also with
 * `requestId`; refusals by a limit are counted in the metrics). A refusal given before the body
 * was read is sent at once, and the rest of the body is then taken in and dropped, up to a bound: a client still
 * sending finishes and reads the answer (closing under it made Node's fetch report a broken pipe instead). Past
 * the bound the connection is closed.
 */
const errorHandler = (maxUploadBytes: number, metrics: Metrics) =>
  function handle(
    this: FastifyInstance,
    err: RequestError,
    request: import('fastify').FastifyRequest,
    reply: import('fastify').FastifyReply,
  ) {
    const appError = toAppError(err, request);
    const retryAfter = (err as { retryAfter?: unknown }).retryAfter;
    if (typeof retryAfter === 'number') reply.header('Retry-After', String(retryAfter));
    if (!request.raw.complete) {
      const raw = request.raw;
      void drainBody(raw, { maxBytes: maxUploadBytes + DRAIN_MARGIN_BYTES, maxMs: DRAIN_MS }).then(
        // An injected request (tests) has a socket without destroy().
        (whole) => whole || raw.socket?.destroy?.(),
      );
    }
    if (LIMIT_CODES.has(appError.code)) metrics.refusedBy(appError.code);
    // A fault of ours carries the request id, so that a visitor's report can be found in the log.
    const body = appError.status === 500 ? { ...appError.toBody(), requestId: request.id } : appError.toBody();
    return reply.code(appError.status).send(body);
  };

/** A refused body is taken in up to the upload limit plus this (the form's other fields), for at most DRAIN_MS. */
const DRAIN_MARGIN_BYTES = 1024 * 1024;
const DRAIN_MS = 10_000;

function toAppError(err: RequestError, request: import('fastify').FastifyRequest): AppError {
  let appError: AppError | undefined = catalogueError(err);
  if (appError) return appError;
  if (err.code === 'FST_REQ_FILE_TOO_LARGE') appError = new AppError('FILE_TOO_LARGE');
  else if (err.code === 'FST_FILES_LIMIT') appError = new AppError('TOO_MANY_FILES');
  else if (err.code === 'FST_PARTS_LIMIT' || err.code === 'FST_FIELDS_LIMIT')
    appError = new AppError('BAD_REQUEST', { reason: 'Too many form fields' });
  else if (err.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
    appError = new AppError('BAD_REQUEST', { reason: 'Send the image as multipart/form-data' });
  else if (err.validation) appError = new AppError('BAD_REQUEST', { reason: err.message });
  else if (err.statusCode === 413) appError = new AppError('FILE_TOO_LARGE');
  else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)
    appError = new AppError('BAD_REQUEST', { reason: err.message });
  else {
    request.log.error({ err }, 'request failed');
    appError = new AppError('INTERNAL');
  }
  return appError;
}
