import { AppError } from '@ai-editor/core';
import { Redis } from 'ioredis';

/**
 * Fixed-window counters per key (a client address, or a user): the guest submission limit, the contact form's and
 * Select object's. Not `@fastify/rate-limit`: it counts requests in a route hook, before the handler, while each of
 * these counts only some requests, decided inside the handler: guest submissions of a tool guests may use (the
 * operation is read from the form as it streams in, and a forbidden tool is refused as such, uncounted), contact
 * messages that pass validation (a visitor fixing a typo is not locked out), selections after the tool's admission.
 */
export interface RateLimiter {
  /** Counts a hit; returns the seconds to wait when over the limit, else 0. */
  hit(key: string): Promise<number>;
}

/** A refusal with the seconds to wait (the error handler sends them as Retry-After). */
export function rateLimited(seconds: number): AppError {
  return Object.assign(new AppError('RATE_LIMITED'), { retryAfter: seconds });
}

/** Counts a hit of `key`; over the limit, refuses with RATE_LIMITED and the seconds to wait. */
export async function hitOrRefuse(limiter: RateLimiter, key: string): Promise<void> {
  const wait = await limiter.hit(key);
  if (wait > 0) throw rateLimited(wait);
}

export interface RateLimit {
  max: number;
  windowMs: number;
}

/** In this process's memory: the embedded default, where one process serves every request. */
export function memoryRateLimiter({ max, windowMs }: RateLimit, now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    async hit(key) {
      const t = now();
      if (windows.size > 10_000) {
        for (const [k, w] of windows) if (t - w.start >= windowMs) windows.delete(k);
      }
      const w = windows.get(key);
      if (!w || t - w.start >= windowMs) {
        windows.set(key, { start: t, count: 1 });
        return 0;
      }
      if (w.count >= max) return Math.ceil((w.start + windowMs - t) / 1000);
      w.count += 1;
      return 0;
    },
  };
}

/**
 * In Redis, shared by every API process of a scale-out deployment (in memory, each process would grant the whole
 * allowance again). A window is a key that counts hits and expires with the window. When Redis does not answer,
 * hits are let through: a limit is not worth refusing visitors over.
 */
export function redisRateLimiter(
  redis: Redis,
  name: string,
  { max, windowMs }: RateLimit,
  onError: (err: unknown) => void = () => {},
): RateLimiter {
  return {
    async hit(key) {
      const k = `rate:${name}:${key}`;
      try {
        const replies = await redis.multi().incr(k).pexpire(k, windowMs, 'NX').pttl(k).exec();
        const count = Number(replies?.[0]?.[1]);
        const ttl = Number(replies?.[2]?.[1]);
        return count > max ? Math.max(1, Math.ceil(ttl / 1000)) : 0;
      } catch (err) {
        onError(err);
        return 0;
      }
    },
  };
}

/** A Redis connection for the limiters: while Redis is away a hit waits at most half a second for it. */
export function rateLimitRedis(url: string, prefix: string): Redis {
  const redis = new Redis(url, { keyPrefix: `${prefix}:`, commandTimeout: 500, maxRetriesPerRequest: 1 });
  redis.on('error', () => {}); // reported through the limiters' onError; ioredis reconnects by itself
  return redis;
}
