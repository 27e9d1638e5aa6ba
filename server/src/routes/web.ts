import fs from 'node:fs';
import path from 'node:path';
import { AppError, pagePaths } from '@ai-editor/core';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const PAGES = new Set(pagePaths());

/** Whether a path is one of the app's pages (a trailing slash is forgiven, as the client router does). */
export function isPage(pathname: string): boolean {
  return PAGES.has(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
}

/**
 * Serves the web app's production build on the same origin: files as they are, index.html for the app's pages,
 * and for any other path index.html with status 404 (the app then shows its 404 page). Unknown /api/* paths
 * answer JSON 404.
 */
export async function webRoutes(app: FastifyInstance, distDir: string) {
  const hasBuild = fs.existsSync(path.join(distDir, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      setHeaders(res, file) {
        // Vite's hashed assets never change; index.html must always be revalidated.
        res.setHeader(
          'Cache-Control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const accepted = request.method === 'GET' || request.method === 'HEAD';
    if (request.url.startsWith('/api/') || !accepted || !hasBuild) throw new AppError('ROUTE_NOT_FOUND');
    const file = request.url.split('?')[0] as string;
    if (file !== '/' && path.extname(file) && file !== '/index.html') throw new AppError('ROUTE_NOT_FOUND');
    reply.header('Cache-Control', 'no-cache');
    if (!isPage(file) && file !== '/index.html') reply.code(404);
    return reply.sendFile('index.html');
  });
}
