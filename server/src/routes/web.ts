import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '@ai-editor/core';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the web app's production build on the same origin: files as they are, index.html for client routes.
 * Unknown /api/* paths answer JSON 404.
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
    if (request.url.startsWith('/api/') || request.method !== 'GET' || !hasBuild) {
      throw new AppError('ROUTE_NOT_FOUND');
    }
    const file = request.url.split('?')[0] as string;
    if (file !== '/' && path.extname(file) && file !== '/index.html') throw new AppError('ROUTE_NOT_FOUND');
    reply.header('Cache-Control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
