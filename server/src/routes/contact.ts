import { type ContactMessage, contactReplySchema, contactSchema } from '@ai-editor/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { hitOrRefuse, type RateLimiter } from '../adapters/rate-limiter.js';
import { fieldErrors } from './schemas.js';

export type { ContactMessage };

/** Stores one message (app.ts writes it to the `contact_messages` table). The rules live in core's contact.ts. */
export type SaveContactMessage = (message: ContactMessage & { ip: string }) => Promise<{ id: number }>;

export interface ContactOptions {
  save: SaveContactMessage;
  /** Messages per client address (config.contactRateLimit). */
  limiter: RateLimiter;
}

/** `POST /api/contact`: validates, rate-limits per client IP and stores a contact-form message. */
export function contactRoutes(app: FastifyInstance, opts: ContactOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/contact',
    {
      schema: {
        operationId: 'sendContactMessage',
        summary: 'Send a message through the contact form',
        tags: ['contact'],
        body: contactSchema,
        response: { 201: contactReplySchema },
      },
      // The form's own messages, naming the field.
      validatorCompiler: fieldErrors,
    },
    async (request, reply) => {
      await hitOrRefuse(opts.limiter, request.ip);
      const { id } = await opts.save({ ...request.body, ip: request.ip });
      reply.code(201);
      return { id, message: 'Thank you for your message. We will get back to you soon.' };
    },
  );
}
