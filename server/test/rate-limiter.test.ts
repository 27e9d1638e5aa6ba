import { describe, expect, it } from 'vitest';
import { rateLimitRedis, redisRateLimiter } from '../src/adapters/rate-limiter.js';
import { closedPort } from './support/ports.js';

describe('rate limits in Redis (scale-out)', () => {
  it('let visitors through, promptly, and report it when Redis does not answer', async () => {
    const redis = rateLimitRedis(`redis://127.0.0.1:${await closedPort()}`, 'rate-limiter-test');
    const errors: unknown[] = [];
    const limiter = redisRateLimiter(redis, 'guests', { max: 1, windowMs: 60_000 }, (err) => errors.push(err));
    try {
      const started = Date.now();
      expect(await limiter.hit('203.0.113.7')).toBe(0);
      expect(await limiter.hit('203.0.113.7')).toBe(0);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(errors).toHaveLength(2);
    } finally {
      redis.disconnect();
    }
  });
});
