import {
  AppError,
  type Me,
  mayDownload,
  meSchema,
  nextUtcMidnight,
  OPERATION_IDS,
  type OperationUsage,
  operationUsage,
  signInBody,
  type UserType,
} from '@ai-editor/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AccountGuard } from '../services/account-guard.js';
import type { Auth } from '../services/auth/index.js';
import { ownerOf } from '../services/sessions.js';
import { usageKey } from '../services/usage.js';
import { startNewSession } from './visitor.js';

/** `GET /api/me`: who the visitor is and what they may do today; the web app's auth state comes from here. */
export async function meView(request: FastifyRequest, auth: Auth, guard: Pick<AccountGuard, 'suspended'>): Promise<Me> {
  const user = request.authUser;
  const type: UserType = user ? 'authenticated' : 'guest';
  const used = await auth.usage.today(usageKey(ownerOf(request)));
  const usage: Record<string, OperationUsage> = {};
  for (const id of OPERATION_IDS) usage[id] = operationUsage(type, id, used[id] ?? 0, auth.usage.limit);
  return {
    user: user
      ? { uid: user.uid, name: user.name ?? null, email: user.email ?? null, photoURL: user.picture ?? null }
      : null,
    type,
    canDownload: mayDownload(type),
    admin: auth.isAdmin(user),
    suspended: guard.suspended(user),
    usage,
    resetsAt: nextUtcMidnight(auth.usage.currentTime()).toISOString(),
  };
}

/**
 * Sign-in binds the session cookie to the verified user, unless the account is blocked; sign-out unbinds it
 * (docs/product.md#sessions).
 */
export function sessionRoutes(fastify: FastifyInstance, auth: Auth, guard: Pick<AccountGuard, 'check' | 'suspended'>) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/session',
    {
      schema: {
        operationId: 'signIn',
        summary: 'Sign in: verify a Firebase ID token and bind this session to its user',
        description: 'Send `{ "idToken": "..." }` (or the token as `Authorization: Bearer`). A bad token is a 401.',
        tags: ['auth'],
        body: signInBody,
        response: { 200: meSchema },
      },
    },
    async (request, reply) => {
      // An API key acts for its owner in API calls; it does not open a browser session.
      if (request.apiKeyId !== undefined) throw new AppError('API_KEY_FORBIDDEN');
      const token = request.body?.idToken;
      // Without a body the identity hook has already verified the Bearer token.
      const user = token ? await auth.verifier.verify(token) : request.authUser;
      if (!user) throw new AppError('INVALID_TOKEN');
      // The token in the body was not known when the guard's hook ran.
      await guard.check(user, { exempt: false, log: request.log });
      const oldSessionId = request.sessionId;
      startNewSession(request, reply);
      await auth.sessions.bind(oldSessionId, request.sessionId, user);
      request.authUser = user;
      request.uid = user.uid;
      return meView(request, auth, guard);
    },
  );

  app.delete(
    '/api/session',
    {
      schema: {
        operationId: 'signOut',
        summary: 'Sign out: unbind this session',
        tags: ['auth'],
        response: { 200: meSchema },
      },
    },
    async (request, reply) => {
      await auth.sessions.unbind(request.sessionId);
      startNewSession(request, reply);
      request.authUser = undefined;
      request.uid = undefined;
      return meView(request, auth, guard);
    },
  );

  app.get(
    '/api/me',
    {
      schema: {
        operationId: 'getMe',
        summary: 'The visitor: user, type, uses per operation today and when they reset',
        tags: ['auth'],
        response: { 200: meSchema },
      },
    },
    async (request) => meView(request, auth, guard),
  );
}
