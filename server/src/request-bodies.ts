import type { IncomingMessage } from 'node:http';
import { AppError } from '@ai-editor/core';
import type { FastifyInstance } from 'fastify';

/**
 * Takes in and drops what is left of a request body, up to `maxBytes` and for at most `maxMs`. True when the body
 * has been read to its end (the connection can serve the next request), false when a bound was reached first
 * (the caller then closes the connection). A client still sending when the server answers and closes gets a
 * broken pipe instead of the answer; reading the rest lets it finish sending and read the answer.
 */
export function drainBody(raw: IncomingMessage, opts: { maxBytes: number; maxMs: number }): Promise<boolean> {
  if (raw.complete) return Promise.resolve(true);
  if (raw.destroyed || raw.readableEnded) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', finish);
      raw.off('close', finish);
      resolve(raw.complete);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > opts.maxBytes) finish();
    };
    const timer = setTimeout(finish, opts.maxMs);
    raw.on('data', onData);
    raw.once('end', finish);
    raw.once('close', finish);
    // A refused multipart form is still piped into its parser, whose back-pressure would pause the body again:
    // cut the pipe, so that the rest flows here only.
    raw.unpipe();
    raw.resume();
  });
}

/**
 * JSON bodies through Fastify's own parser (prototype poisoning refused), with answers that say what is wrong:
 * text that is not JSON, or JSON with a `__proto__` or `constructor.prototype` key.
 */
export function registerJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parse(request, body as string, (err: Error | null, value?: unknown) => {
      if (!err) return done(null, value);
      // No body (clients such as axios name the type on every call, a bodiless DELETE too): the route decides.
      if ((body as string).length === 0) return done(null, undefined);
      let isJson = true;
      try {
        JSON.parse(body as string);
      } catch {
        isJson = false;
      }
      done(
        new AppError('BAD_REQUEST', {
          reason: isJson
            ? 'The body may not contain a "__proto__" or "constructor.prototype" key'
            : 'The body is not valid JSON',
        }),
      );
    });
  });
}

/**
 * A request body (a 10 MB upload included) must arrive within `ms` of the request's start; a trickled one is cut
 * off by closing its connection. (Node's own requestTimeout did not end a body that keeps trickling in here.)
 */
export function limitBodyTime(app: FastifyInstance, ms: number) {
  app.addHook('onRequest', async (request) => {
    const raw = request.raw;
    if (raw.complete) return;
    const timer = setTimeout(() => {
      if (raw.complete) return;
      request.log.warn({ url: request.url }, `request body not received within ${ms} ms: connection closed`);
      raw.socket.destroy();
    }, ms);
    timer.unref();
    raw.once('end', () => clearTimeout(timer));
    raw.once('close', () => clearTimeout(timer));
  });
}
