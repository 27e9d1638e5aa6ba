import { AppError, type OperationId } from '@ai-editor/core';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { type DatabaseHandle, openDatabase } from './adapters/db.js';
import type { EnginePool } from './adapters/engine-pool.js';
import type { JobQueue } from './adapters/queue.js';
import { selectJobChanges, selectQueue, selectRateLimiters, selectStorage } from './adapters/select.js';
import type { Storage } from './adapters/storage.js';
import type { Config } from './config.js';
import { createEngineRegistry } from './engines/registry.js';
import { ContactMessageRepository } from './repositories/contact-messages.js';
import { IdempotencyKeyRepository } from './repositories/idempotency-keys.js';
import { ImageRepository } from './repositories/images.js';
import { clientConfigRoutes } from './routes/client-config.js';
import { contactRoutes } from './routes/contact.js';
import { healthRoutes } from './routes/health.js';
import { imageRoutes } from './routes/images.js';
import { jobEventRoutes } from './routes/job-events.js';
import { libraryRoutes } from './routes/library.js';
import { registerOpenApi } from './routes/openapi.js';
import { recommendationRoutes } from './routes/recommendations.js';
import { selectObjectRoutes } from './routes/select-object.js';
import { sessionRoutes } from './routes/session.js';
import { webRoutes } from './routes/web.js';
import { registerSecurityHeaders } from './security-headers.js';
import { assertAuthConfig, setUpAuth } from './services/auth/index.js';
import { IdempotencyService } from './services/idempotency.js';
import { JobService } from './services/jobs.js';
import { LibraryService } from './services/library.js';
import { RecommendationService } from './services/recommendations.js';
import { RetentionService } from './services/retention.js';
import { registerSessions, sessionSecret } from './services/sessions.js';

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
  close(): Promise<void>;
}

/** Wires the adapters, services and routes of one API process on the embedded defaults. */
export async function buildApp(opts: AppOptions): Promise<App> {
  const { config } = opts;
  // Refuse to start on an unsafe sign-in configuration before opening anything.
  assertAuthConfig(config.auth);
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    // A connection with nothing moving for this long is closed (idle keep-alive sockets included).
    connectionTimeout: config.idleTimeoutMs,
  });
  await registerSecurityHeaders(app, config);
  limitBodyTime(app, config.requestTimeoutMs);
  const database = await openDatabase(config);
  const storage = selectStorage(config);
  const swept = await storage.sweepPartial?.();
  if (swept) app.log.warn({ files: swept }, 'removed partial files left by writes cut short');
  const registry = createEngineRegistry(config, {
    log: app.log,
    localOverrides: opts.localEngineOverrides,
  });
  const images = new ImageRepository(database.db);
  // Embedded queue and engine pool by default; BullMQ (and worker processes) with REDIS_URL (adapters/select.ts).
  // The queue runs each job through the service built on the next line: it calls back only once jobs arrive.
  const { queue, pool } = selectQueue(config, {
    run: (id) => jobs.process(id),
    operationOf: (id) => images.operationOf(id),
    log: app.log,
    registry,
  });
  const changes = selectJobChanges(config, app.log);
  const jobs = new JobService({ images, storage, registry, queue, pool, config, log: app.log, changes });

  // Routes validate and serialise with the zod schemas of core/src/api, which also make /api/openapi.json.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await registerOpenApi(app);
  await app.register(fastifyCookie, { secret: sessionSecret(config.sessionSecret, config.dataDir) });
  await app.register(fastifyMultipart, {
    limits: { fileSize: config.maxUploadBytes, files: 3, fields: 40, fieldSize: 64 * 1024, parts: 45 },
  });
  registerSessions(app);
  app.setErrorHandler(errorHandler);
  const limiters = selectRateLimiters(config, app.log);
  const auth = await setUpAuth(app, {
    config,
    guestLimiter: limiters.guests,
    db: database.db,
    images,
    jobs,
    log: app.log,
  });

  const idempotency = new IdempotencyService({ keys: new IdempotencyKeyRepository(database.db) });
  imageRoutes(app, {
    jobs,
    storage,
    limits: config,
    admission: auth.rules,
    beforeDownload: auth.rules.beforeDownload,
    idempotency,
  });
  jobEventRoutes(app, { jobs, changes });
  const library = new LibraryService({ images, storage, log: app.log });
  libraryRoutes(app, { jobs, library, retentionHours: config.retentionHours });
  sessionRoutes(app, auth);
  selectObjectRoutes(app, { jobs, pool, limits: config, admission: auth.rules, timeoutMs: config.jobTimeoutMs });
  recommendationRoutes(app, { recommendations: new RecommendationService({ jobs, storage, pool, log: app.log }) });
  healthRoutes(app, { database, storage, queue, registry, pool, storageMinFreeBytes: config.storageMinFreeBytes });
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
  await jobs.resumePending();
  void sweep();

  return {
    app,
    jobs,
    retention,
    database,
    storage,
    queue,
    pool,
    async close() {
      clearInterval(sweepTimer);
      await app.close();
      // Running jobs get a grace period to finish (the Auth emulator exports its accounts meanwhile); the ones
      // still running after it stay pending and run again at the next start.
      await Promise.all([auth.close(), limiters.close(), jobs.stopAfter(queue.close(), config.shutdownGraceMs)]);
      await changes.close();
      await database.close();
    },
  };
}

/** Every error leaves as `{ code, message }` from the catalogue, with its status. */
function errorHandler(
  this: FastifyInstance,
  err: Error & { code?: string; statusCode?: number; validation?: unknown },
  request: import('fastify').FastifyRequest,
  reply: import('fastify').FastifyReply,
) {
  let appError: AppError;
  if (err instanceof AppError) appError = err;
  else if (err.code === 'FST_REQ_FILE_TOO_LARGE') appError = new AppError('FILE_TOO_LARGE');
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
  // Refused before the body was read (guest rules, limits): close the connection rather than take the rest in.
  if (!request.raw.complete) reply.header('Connection', 'close');
  reply.code(appError.status).send(appError.toBody());
}

/**
 * A request body (a 10 MB upload included) must arrive within `ms` of the request's start; a trickled one is cut
 * off by closing its connection. (Node's own requestTimeout did not end a body that keeps trickling in here.)
 */
function limitBodyTime(app: FastifyInstance, ms: number) {
  app.addHook('onRequest', async (request) => {
    const raw = request.raw;
    if (raw.complete) return;
    const timer = setTimeout(() => {
      if (raw.complete) return;
      request.log.warn({ url: request.url }, `request body not received within ${ms} ms: connection closed`);
      raw.socket.destroy();
    }, ms);
    timer.unref();
    raw.once('end', () => clearTimeout(timer));
    raw.once('close', () => clearTimeout(timer));
  });
}
