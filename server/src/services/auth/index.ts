import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from '../../adapters/db.js';
import { type AuthEmulator, startAuthEmulator } from '../../adapters/firebase-emulator.js';
import type { RateLimiter } from '../../adapters/rate-limiter.js';
import type { Config } from '../../config.js';
import { images, sessionBindings } from '../../db/schema.js';
import type { ImageRepository } from '../../repositories/images.js';
import { UsageRepository } from '../../repositories/usage.js';
import type { JobService } from '../jobs.js';
import { createRules, type Rules } from '../rules.js';
import { UsageService } from '../usage.js';
import { createTokenVerifier, type TokenVerifier, type VerifiedUser } from './verifier.js';

export { assertAuthConfig, publicAuthConfig } from './config.js';
export type { TokenVerifier, VerifiedUser } from './verifier.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user's profile (from the session binding or the Bearer token), when there is one. */
    authUser?: VerifiedUser;
  }
}

export interface Auth {
  verifier: TokenVerifier;
  usage: UsageService;
  rules: Rules;
  db: Database;
  /** The emulator started beside the app (emulator mode only). */
  emulator?: AuthEmulator;
  close(): Promise<void>;
}

/**
 * Identity for every API request: `Authorization: Bearer <ID token>` (API clients; a bad token is a 401), else
 * the user the session cookie is bound to, else a guest. Must run after the session hook.
 */
function registerIdentity(app: FastifyInstance, db: Database, verifier: TokenVerifier) {
  app.decorateRequest('authUser', undefined);
  app.addHook('onRequest', async (request) => {
    // Pages and assets carry no rules; only the API needs to know who is asking.
    if (!request.url.startsWith('/api/')) return;
    const header = request.headers.authorization;
    if (header?.toLowerCase().startsWith('bearer ')) {
      request.authUser = await verifier.verify(header.slice(7).trim());
    } else {
      const [binding] = await db.select().from(sessionBindings).where(eq(sessionBindings.sessionId, request.sessionId));
      if (binding) {
        request.authUser = {
          uid: binding.uid,
          email: binding.email ?? undefined,
          name: binding.name ?? undefined,
          picture: binding.picture ?? undefined,
        };
      }
    }
    request.uid = request.authUser?.uid;
  });
}

/**
 * Binds a fresh session id to the user (the old one is dropped, against session fixation). The jobs the visitor
 * made as a guest in this browser move to the user: they were made by the same person, and signing in to download
 * a guest result is the product's own path. They are not counted against the daily limit.
 */
export async function bindSession(db: Database, oldSessionId: string, newSessionId: string, user: VerifiedUser) {
  await db.transaction(async (tx) => {
    await tx.delete(sessionBindings).where(eq(sessionBindings.sessionId, oldSessionId));
    await tx.insert(sessionBindings).values({
      sessionId: newSessionId,
      uid: user.uid,
      email: user.email ?? null,
      name: user.name ?? null,
      picture: user.picture ?? null,
    });
    await tx
      .update(images)
      .set({ ownerUid: user.uid, updatedAt: new Date() })
      .where(and(eq(images.ownerSession, oldSessionId), isNull(images.ownerUid)));
  });
}

export async function unbindSession(db: Database, sessionId: string): Promise<void> {
  await db.delete(sessionBindings).where(eq(sessionBindings.sessionId, sessionId));
}

export interface AuthDeps {
  config: Config;
  guestLimiter: RateLimiter;
  db: Database;
  images: ImageRepository;
  jobs: JobService;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/**
 * Sets up sign-in and the rules: token verifier (refuses unsafe configurations), the identity hook, the daily
 * count with its give-back for failed jobs, and in emulator mode the Firebase Auth emulator beside the app
 * (started in the background: the API does not need it, only the browser's sign-in popup does).
 */
export async function setUpAuth(app: FastifyInstance, deps: AuthDeps): Promise<Auth> {
  const { config, db, log } = deps;
  const verifier = createTokenVerifier(config.auth);
  registerIdentity(app, db, verifier);

  const usage = new UsageService({
    usage: new UsageRepository(db),
    images: deps.images,
    limit: config.dailyUsesPerOperation,
    now: deps.now,
  });
  deps.jobs.events.on('failed', (row) => {
    usage.refund(row.id).catch((err) => log.error({ err, job: row.id }, 'could not give the use back'));
  });
  // Jobs failed in worker processes (scale-out) or while this process was down never reach the event above.
  const reconcile = () =>
    usage
      .reconcile()
      .then((n) => n && log.info({ refunded: n }, 'gave back the uses of failed jobs'))
      .catch((err) => log.error({ err }, 'usage reconcile failed'));
  await reconcile();
  const reconcileTimer = setInterval(reconcile, 60_000);
  reconcileTimer.unref();

  const rules = createRules({ usage, guestLimiter: deps.guestLimiter });

  let emulator: AuthEmulator | undefined;
  const { auth } = config;
  if (auth.mode === 'emulator' && auth.emulator.start) {
    emulator = await startAuthEmulator({
      projectId: auth.projectId,
      host: auth.emulator.host,
      port: auth.emulator.port,
      dataDir: auth.emulator.dataDir,
      log,
    });
    emulator.ready().then(
      () => log.info(`Local sign-in: Firebase Auth emulator at ${emulator?.url} (project ${auth.projectId})`),
      (err) => log.error({ err }, 'the Firebase Auth emulator did not start: sign-in is unavailable'),
    );
  }

  return {
    verifier,
    usage,
    rules,
    db,
    emulator,
    async close() {
      clearInterval(reconcileTimer);
      await emulator?.stop();
    },
  };
}
