import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountGuard } from '../services/account-guard.js';
import type { Identify, VerifiedUser } from '../services/auth/index.js';
import type { Submitter } from '../services/rules.js';
import { newSession, SESSION_COOKIE } from '../services/sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Every visitor's session id, from the signed cookie (issued on first contact). */
    sessionId: string;
    /** The signed-in user's uid, once the session is bound to one (the sign-in service sets it). */
    uid?: string;
    /** The signed-in user's profile (from the session binding or the Bearer token), when there is one. */
    authUser?: VerifiedUser;
    /** Set when the request signed in with a personal API key (`Authorization: Bearer aie_…`): which key. */
    apiKeyId?: number;
  }
}

/** Gives every visitor a session in a signed cookie (services/sessions.ts says which). */
export function registerSessions(app: FastifyInstance): void {
  app.decorateRequest('sessionId', '');
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.cookies[SESSION_COOKIE];
    const unsigned = raw ? request.unsignCookie(raw) : undefined;
    if (unsigned?.valid && unsigned.value) {
      request.sessionId = unsigned.value;
      return;
    }
    startNewSession(request, reply);
  });
}

/** Gives the visitor a fresh session id (first contact, and at sign-in and sign-out, against session fixation). */
export function startNewSession(request: FastifyRequest, reply: FastifyReply): void {
  const session = newSession(request.protocol === 'https');
  request.sessionId = session.id;
  reply.setCookie(session.cookie.name, session.id, session.cookie.options);
}

/** Who asks each API request (services/auth's `identify`). Must run after the session hook. */
export function registerIdentity(app: FastifyInstance, identify: Identify): void {
  app.decorateRequest('authUser', undefined);
  app.decorateRequest('apiKeyId', undefined);
  app.addHook('onRequest', async (request) => {
    // Pages and assets carry no rules; only the API needs to know who is asking.
    if (!request.url.startsWith('/api/')) return;
    const { user, apiKeyId } = await identify(request.headers.authorization, request.sessionId);
    request.authUser = user;
    request.apiKeyId = apiKeyId;
    request.uid = user?.uid;
  });
}

/**
 * After the identity hook: a suspended account is refused (services/account-guard.ts), but may sign out and read
 * its own state (the header shows the suspension).
 */
export function registerAccountGuard(app: FastifyInstance, guard: AccountGuard): void {
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0];
    const exempt =
      (request.method === 'DELETE' && path === '/api/session') || (request.method === 'GET' && path === '/api/me');
    await guard.check(request.authUser, { exempt, log: request.log });
  });
}

/** Who submits a request, as the rules see it (services/rules.ts). */
export function submitterOf(request: FastifyRequest): Submitter {
  return { sessionId: request.sessionId, uid: request.uid, ip: request.ip };
}
