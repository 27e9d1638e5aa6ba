import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryRateLimiter } from '../src/adapters/rate-limiter.js';
import { type ContactMessage, contactRoutes } from '../src/routes/contact.js';

type Stored = ContactMessage & { ip: string };

async function makeApp(max = 5) {
  const stored: Stored[] = [];
  const app = Fastify();
  // As the real app (app.ts): routes validate and serialise with their zod schemas.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The real app answers AppErrors as { code, message } with their status (and Retry-After); do the same here.
  app.setErrorHandler((err: Error & { status?: number; code?: string; retryAfter?: number }, _req, reply) => {
    if (err.retryAfter !== undefined) reply.header('Retry-After', String(err.retryAfter));
    reply.code(err.status ?? 500).send({ code: err.code, message: err.message });
  });
  contactRoutes(app, {
    save: async (m) => {
      stored.push(m);
      return { id: stored.length };
    },
    limiter: memoryRateLimiter({ max, windowMs: 60_000 }),
  });
  await app.ready();
  return { app, stored };
}

const valid = { name: ' Ada Lovelace ', email: 'ada@example.com', message: 'Hello, the engine works beautifully.' };

describe('POST /api/contact', () => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => close?.());

  it('stores a valid message, trimmed, with the client IP', async () => {
    const { app, stored } = await makeApp();
    close = () => app.close();
    const res = await app.inject({ method: 'POST', url: '/api/contact', payload: valid });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ id: 1 });
    expect(stored).toEqual([{ ...valid, name: 'Ada Lovelace', ip: '127.0.0.1' }]);
  });

  it.each([
    [{ ...valid, name: '' }, 'name', 'Please enter your name'],
    [{ ...valid, email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
    [{ ...valid, message: 'short' }, 'message', 'Message must be at least 10 characters'],
    [{ name: 'A' }, 'email', ''],
  ])('refuses %j', async (body, field, text) => {
    const { app, stored } = await makeApp();
    close = () => app.close();
    const res = await app.inject({ method: 'POST', url: '/api/contact', payload: body });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('INVALID_PARAMETER');
    expect(res.json().message).toContain(`"${field}"`);
    expect(res.json().message).toContain(text);
    expect(stored).toHaveLength(0);
  });

  it('limits messages per client IP', async () => {
    const { app, stored } = await makeApp(2);
    close = () => app.close();
    const send = (ip: string) => app.inject({ method: 'POST', url: '/api/contact', payload: valid, remoteAddress: ip });
    expect((await send('10.0.0.1')).statusCode).toBe(201);
    expect((await send('10.0.0.1')).statusCode).toBe(201);
    const third = await send('10.0.0.1');
    expect(third.statusCode).toBe(429);
    expect(third.json().code).toBe('RATE_LIMITED');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect((await send('10.0.0.2')).statusCode).toBe(201);
    expect(stored).toHaveLength(3);
  });

  it('does not count a refused message: a visitor who corrects the form is not locked out', async () => {
    const { app, stored } = await makeApp(1);
    close = () => app.close();
    const send = (payload: object) => app.inject({ method: 'POST', url: '/api/contact', payload });
    for (let i = 0; i < 3; i++) expect((await send({ ...valid, email: 'typo' })).statusCode).toBe(400);
    expect((await send(valid)).statusCode).toBe(201);
    expect(stored).toHaveLength(1);
  });
});

describe('memoryRateLimiter', () => {
  it('opens a new window after windowMs', async () => {
    let t = 0;
    const limiter = memoryRateLimiter({ max: 1, windowMs: 1000 }, () => t);
    expect(await limiter.hit('a')).toBe(0);
    expect(await limiter.hit('a')).toBe(1);
    t = 1000;
    expect(await limiter.hit('a')).toBe(0);
  });
});
