import type { FastifyReply } from 'fastify';

/**
 * Aborted when the client goes away before its answer was sent (the connection closed: a tab closed, a fetch
 * aborted, a proxy's timeout), so that work nobody waits for leaves the queue or is stopped.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  const res = reply.raw;
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  return gone.signal;
}
