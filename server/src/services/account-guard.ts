import { AppError } from '@ai-editor/core';
import type { FastifyInstance } from 'fastify';
import type { AdminRepository } from '../repositories/admin.js';
import type { AdminService } from './admin.js';

/** A signed-in account is recorded (for the admin page's Accounts) at most this often per process. */
const SEEN_EVERY_MS = 10 * 60_000;

/**
 * After the identity hook: a blocked account's API requests are refused with 403 'Account suspended' (signing out
 * still works), and every signed-in account is recorded with its email.
 */
export function registerAccountGuard(app: FastifyInstance, deps: { admin: AdminService; repo: AdminRepository }) {
  const seenAt = new Map<string, number>();
  app.addHook('onRequest', async (request) => {
    const user = request.authUser;
    if (!user) return;
    if (deps.admin.isBlocked(user.uid) && !(request.method === 'DELETE' && request.url === '/api/session')) {
      throw new AppError('ACCOUNT_SUSPENDED');
    }
    const now = Date.now();
    if (now - (seenAt.get(user.uid) ?? 0) < SEEN_EVERY_MS) return;
    seenAt.set(user.uid, now);
    if (seenAt.size > 10_000) seenAt.clear();
    await deps.repo.seen(user).catch((err) => request.log.warn({ err }, 'could not record the account'));
  });
}
