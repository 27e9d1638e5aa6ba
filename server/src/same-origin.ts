import { AppError } from '@ai-editor/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerToken } from './services/auth/index.js';

/** Methods that change nothing: never refused here. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a state-changing request may come from where the browser says it comes from. Browsers send
 * `Sec-Fetch-Site` with every request: only `same-origin` (the app's own pages) and `none` (typed in, a bookmark)
 * pass. Browsers without it send `Origin` on every POST: its host must be the request's own host, or one of the
 * configured public origins. A request with neither header did not come from a browser's page (curl, a server).
 * SameSite=Lax alone does not stop another port of the same host, or a sibling subdomain: both are the same site.
 */
export function isSameOrigin(request: FastifyRequest, publicOrigins: readonly string[]): boolean {
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  if (origin && publicOrigins.includes(origin)) return true;
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === request.host;
  } catch {
    // "null" (a sandboxed frame, a file: page, a redirect across sites) or garbage.
    return false;
  }
}

/**
 * Refuses (403 CROSS_SITE_REQUEST) every POST, PUT, PATCH and DELETE that another origin's page made a browser
 * send with this visitor's cookie. Requests with an `Authorization: Bearer` header carry their credential themselves
 * (an API key, an ID token) and are identified by it alone, never by the cookie, so they are not checked. Any other
 * `Authorization` (Basic, which a browser can send by itself) leaves the cookie in charge and is checked.
 */
export function registerSameOrigin(app: FastifyInstance, publicOrigins: readonly string[]): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || bearerToken(request.headers.authorization) !== undefined) return;
    if (!isSameOrigin(request, publicOrigins)) {
      request.log.warn(
        { url: request.url, origin: request.headers.origin, site: request.headers['sec-fetch-site'] },
        'cross-site request refused',
      );
      throw new AppError('CROSS_SITE_REQUEST');
    }
  });
}
