import type { Database } from '../../adapters/db.js';
import { type AuthEmulator, startAuthEmulator } from '../../adapters/firebase-emulator.js';
import type { RateLimiter } from '../../adapters/rate-limiter.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../logging.js';
import { ApiKeyRepository } from '../../repositories/api-keys.js';
import type { ImageRepository } from '../../repositories/images.js';
import { SessionRepository } from '../../repositories/sessions.js';
import { UsageRepository } from '../../repositories/usage.js';
import { ApiKeyService, isApiKey } from '../api-keys.js';
import type { JobService } from '../jobs.js';
import { createRules, type Rules } from '../rules.js';
import { UsageService } from '../usage.js';
import { createTokenVerifier, type TokenVerifier, type VerifiedUser } from './verifier.js';

export { assertAuthConfig, publicAuthConfig } from '../../config-auth.js';
export type { TokenVerifier, VerifiedUser } from './verifier.js';

export interface Auth {
  verifier: TokenVerifier;
  /** Who asks a request (routes/visitor.ts runs it for every API request). */
  identify: Identify;
  usage: UsageService;
  rules: Rules;
  /** Binds a session to its user at sign-in (moving the guest jobs along) and unbinds it at sign-out. */
  sessions: SessionRepository;
  apiKeys: ApiKeyService;
  /** Whether the user may use the admin page: a verified email that ADMIN_EMAILS names. */
  isAdmin(user: VerifiedUser | undefined): boolean;
  /** The emulator started beside the app (emulator mode only). */
  emulator?: AuthEmulator;
  close(): Promise<void>;
}

/** Who asks: the signed-in user (and the API key it used, if any), or nobody (a guest). */
export interface Identity {
  user?: VerifiedUser;
  apiKeyId?: number;
}

/**
 * The credential an `Authorization: Bearer <token>` header carries (an API key or an ID token), or nothing for any
 * other header. Only a bearer credential identifies a request without its session cookie.
 */
export function bearerToken(authorization: string | undefined): string | undefined {
  return authorization?.toLowerCase().startsWith('bearer ') ? authorization.slice(7).trim() : undefined;
}

/** Identifies a request from its `Authorization` header and its session id. */
export type Identify = (authorization: string | undefined, sessionId: string) => Promise<Identity>;

/**
 * Identity for every API request: `Authorization: Bearer <token>` (API clients: a personal API key `aie_…`, told
 * apart by its prefix, or a Firebase ID token; a bad one is a 401), else the user the session cookie is bound to,
 * else a guest.
 */
export function createIdentify(sessions: SessionRepository, verifier: TokenVerifier, apiKeys: ApiKeyService): Identify {
  return async (authorization, sessionId) => {
    const token = bearerToken(authorization);
    if (token !== undefined) {
      if (isApiKey(token)) {
        const { keyId, ...user } = await apiKeys.authenticate(token);
        return { user, apiKeyId: keyId };
      }
      return { user: await verifier.verify(token) };
    }
    const binding = await sessions.find(sessionId);
    if (!binding) return {};
    return {
      user: {
        uid: binding.uid,
        email: binding.email ?? undefined,
        emailVerified: binding.emailVerified,
        name: binding.name ?? undefined,
        picture: binding.picture ?? undefined,
      },
    };
  };
}

export interface AuthDeps {
  config: Config;
  guestLimiter: RateLimiter;
  db: Database;
  images: ImageRepository;
  jobs: JobService;
  log: Logger;
  now?: () => Date;
}

/**
 * Sets up sign-in and the rules: token verifier (refuses unsafe configurations), who asks (`identify`), the daily
 * count with its give-back for failed jobs, and in emulator mode the Firebase Auth emulator beside the app
 * (started in the background: the API does not need it, only the browser's sign-in popup does).
 */
export async function setUpAuth(deps: AuthDeps): Promise<Auth> {
  const { config, db, log } = deps;
  const verifier = createTokenVerifier(config.auth);
  const sessions = new SessionRepository(db);
  const apiKeys = new ApiKeyService(new ApiKeyRepository(db));

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
    identify: createIdentify(sessions, verifier, apiKeys),
    usage,
    rules,
    sessions,
    apiKeys,
    emulator,
    isAdmin: (user) => isAdminEmail(config.adminEmails, user),
    async close() {
      clearInterval(reconcileTimer);
      await emulator?.stop();
    },
  };
}

/** ADMIN_EMAILS names the account, and its sign-in says the email is verified. */
export function isAdminEmail(adminEmails: readonly string[], user: VerifiedUser | undefined): boolean {
  return !!user?.email && user.emailVerified === true && adminEmails.includes(user.email.toLowerCase());
}
