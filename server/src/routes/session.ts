import {
  AppError,
  mayDownload,
  nextUtcMidnight,
  OPERATION_IDS,
  type OperationUsage,
  operationUsage,
  type UserType,
} from '@ai-editor/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Auth } from '../services/auth/index.js';
import { startNewSession } from '../services/sessions.js';

/** `GET /api/me`: who the visitor is and what they may do today; the web app's auth state comes from here. */
export interface MeView {
  user: { uid: string; name: string | null; email: string | null; photoURL: string | null } | null;
  type: UserType;
  canDownload: boolean;
  usage: Record<string, OperationUsage>;
  /** When today's uses reset (next midnight UTC); null for guests, who are not counted. */
  resetsAt: string | null;
}

export async function meView(request: FastifyRequest, auth: Auth): Promise<MeView> {
  const user = request.authUser;
  const type: UserType = user ? 'authenticated' : 'guest';
  const used = user ? await auth.usage.today(user.uid) : {};
  const usage: Record<string, OperationUsage> = {};
  for (const id of OPERATION_IDS) usage[id] = operationUsage(type, id, used[id] ?? 0, auth.usage.limit);
  return {
    user: user
      ? { uid: user.uid, name: user.name ?? null, email: user.email ?? null, photoURL: user.picture ?? null }
      : null,
    type,
    canDownload: mayDownload(type),
    usage,
    resetsAt: user ? nextUtcMidnight(auth.usage.currentTime()).toISOString() : null,
  };
}

const usageSchema = {
  type: 'object',
  properties: {
    allowed: { type: 'boolean' },
    used: { type: 'integer' },
    limit: { type: ['integer', 'null'] },
    left: { type: ['integer', 'null'] },
  },
} as const;

const meSchema = {
  type: 'object',
  properties: {
    user: {
      type: ['object', 'null'],
      properties: {
        uid: { type: 'string' },
        name: { type: ['string', 'null'] },
        email: { type: ['string', 'null'] },
        photoURL: { type: ['string', 'null'] },
      },
    },
    type: { type: 'string', enum: ['guest', 'authenticated'] },
    canDownload: { type: 'boolean' },
    usage: { type: 'object', additionalProperties: usageSchema },
    resetsAt: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['user', 'type', 'canDownload', 'usage', 'resetsAt'],
} as const;

/** Sign-in binds the session cookie to the verified user; sign-out unbinds it (docs/product.md#sessions). */
export function sessionRoutes(app: FastifyInstance, auth: Auth) {
  app.post<{ Body: { idToken?: string } | undefined }>(
    '/api/session',
    {
      schema: {
        summary: 'Sign in: verify a Firebase ID token and bind this session to its user',
        description: 'Send `{ "idToken": "..." }` (or the token as `Authorization: Bearer`). A bad token is a 401.',
        tags: ['auth'],
        body: {
          type: ['object', 'null'],
          properties: { idToken: { type: 'string', minLength: 1, maxLength: 16_384 } },
          additionalProperties: false,
        },
        response: { 200: meSchema },
      },
    },
    async (request, reply) => {
      const token = request.body?.idToken;
      // Without a body the identity hook has already verified the Bearer token.
      const user = token ? await auth.verifier.verify(token) : request.authUser;
      if (!user) throw new AppError('INVALID_TOKEN');
      const oldSessionId = request.sessionId;
      startNewSession(request, reply);
      await auth.sessions.bind(oldSessionId, request.sessionId, user);
      request.authUser = user;
      request.uid = user.uid;
      return meView(request, auth);
    },
  );

  app.delete(
    '/api/session',
    { schema: { summary: 'Sign out: unbind this session', tags: ['auth'], response: { 200: meSchema } } },
    async (request, reply) => {
      await auth.sessions.unbind(request.sessionId);
      startNewSession(request, reply);
      request.authUser = undefined;
      request.uid = undefined;
      return meView(request, auth);
    },
  );

  app.get(
    '/api/me',
    {
      schema: {
        summary: 'The visitor: user, type, uses per operation today and when they reset',
        tags: ['auth'],
        response: { 200: meSchema },
      },
    },
    async (request) => meView(request, auth),
  );
}
