import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Owner } from '../repositories/images.js';

export const SESSION_COOKIE = 'aie_sid';
const ONE_YEAR_S = 365 * 24 * 3600;

declare module 'fastify' {
  interface FastifyRequest {
    /** Every visitor's session id, from the signed cookie (issued on first contact). */
    sessionId: string;
    /** The signed-in user's uid, once the session is bound to one (the sign-in service sets it). */
    uid?: string;
  }
}

export function ownerOf(request: FastifyRequest): Owner {
  return { sessionId: request.sessionId, uid: request.uid };
}

/** The cookie-signing secret: configured, or generated once and kept in the data directory. */
export function sessionSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'session-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('hex');
    fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return fs.readFileSync(file, 'utf8').trim();
  }
}

/** Gives every visitor a session in a signed, HTTP-only, SameSite=Lax cookie (docs/product.md#sessions). */
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
  request.sessionId = randomBytes(18).toString('base64url');
  reply.setCookie(SESSION_COOKIE, request.sessionId, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: ONE_YEAR_S,
  });
}
