import { AppError, type ContactMessage, contactSchema } from '@ai-editor/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

export type { ContactMessage };

/** Stores one message (app.ts writes it to the `contact_messages` table). The rules live in core's contact.ts. */
export type SaveContactMessage = (message: ContactMessage & { ip: string }) => Promise<{ id: number }>;

export interface ContactOptions {
  save: SaveContactMessage;
  /** Messages per client IP per window; defaults to 5 per hour. */
  rateLimit?: { max: number; windowMs: number };
  now?: () => number;
}

/**
 * A fixed-window counter per client IP. In memory on purpose: it only has to stop one client flooding the form,
 * and a restart forgetting the counts is harmless.
 */
export function createRateLimiter(max: number, windowMs: number, now: () => number = Date.now) {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    /** Counts a hit; returns the seconds to wait when over the limit, else 0. */
    hit(key: string): number {
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

const bodySchema = z.toJSONSchema(contactSchema, { io: 'input' });

/** `POST /api/contact`: validates, rate-limits per client IP and stores a contact-form message. */
export function contactRoutes(app: FastifyInstance, opts: ContactOptions) {
  const limit = opts.rateLimit ?? { max: 5, windowMs: 60 * 60 * 1000 };
  const limiter = createRateLimiter(limit.max, limit.windowMs, opts.now);
  app.post(
    '/api/contact',
    {
      schema: {
        summary: 'Send a message through the contact form',
        tags: ['contact'],
        body: bodySchema,
        response: {
          201: {
            type: 'object',
            properties: { id: { type: 'integer' }, message: { type: 'string' } },
            required: ['id', 'message'],
          },
        },
      },
      // The JSON schema above documents the body; zod validates it, with the form's own messages.
      validatorCompiler: () => () => true,
    },
    async (request, reply) => {
      const parsed = contactSchema.safeParse(request.body ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AppError('INVALID_PARAMETER', {
          field: String(issue?.path[0] ?? 'body'),
          reason: issue?.message ?? 'invalid',
        });
      }
      const wait = limiter.hit(request.ip);
      if (wait > 0) {
        reply.header('Retry-After', String(wait));
        throw new AppError('RATE_LIMITED');
      }
      const { id } = await opts.save({ ...parsed.data, ip: request.ip });
      reply.code(201);
      return { id, message: 'Thank you for your message. We will get back to you soon.' };
    },
  );
}
