import { AppError, type ContactMessage, contactSchema } from '@ai-editor/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { RateLimiter } from '../adapters/rate-limiter.js';

export type { ContactMessage };

/** Stores one message (app.ts writes it to the `contact_messages` table). The rules live in core's contact.ts. */
export type SaveContactMessage = (message: ContactMessage & { ip: string }) => Promise<{ id: number }>;

export interface ContactOptions {
  save: SaveContactMessage;
  /** Messages per client address (config.contactRateLimit). */
  limiter: RateLimiter;
}

const bodySchema = z.toJSONSchema(contactSchema, { io: 'input' });

/** `POST /api/contact`: validates, rate-limits per client IP and stores a contact-form message. */
export function contactRoutes(app: FastifyInstance, opts: ContactOptions) {
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
      const wait = await opts.limiter.hit(request.ip);
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
