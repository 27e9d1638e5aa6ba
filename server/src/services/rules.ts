import { AppError, guestMayUse, mayDownload, type OperationId } from '@ai-editor/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter } from '../adapters/rate-limiter.js';
import type { ImageRow } from '../db/schema.js';
import { ownerOf } from './sessions.js';
import { type UsageService, usageKey } from './usage.js';

/** A counted use, waiting to learn whether its submission became a job. */
export interface Admission {
  accepted(row: ImageRow): Promise<void>;
  cancelled(): Promise<void>;
}

export interface Rules {
  /** Before a submission is validated: guests may use face-enhancement only, and only so often per address. */
  check(request: FastifyRequest, reply: FastifyReply, operation: OperationId): Promise<void>;
  /** Once it is valid: counts the use against the visitor's daily allowance (429 past it); guests per session. */
  admit(request: FastifyRequest, operation: OperationId): Promise<Admission | undefined>;
  /** The download route (an attachment) is for signed-in owners only; showing a result in the page is not. */
  beforeDownload(request: FastifyRequest, row: ImageRow, attachment: boolean): Promise<void>;
}

export interface RulesDeps {
  usage: UsageService;
  /** Guest submissions per client address (the abuse guard beside the per-session allowance). */
  guestLimiter: RateLimiter;
}

/** The rules (docs/product.md#rules) as the server enforces them. The definitions live in core's rules. */
export function createRules(deps: RulesDeps): Rules {
  return {
    async check(request, reply, operation) {
      if (request.uid) return;
      if (!guestMayUse(operation)) throw new AppError('FEATURE_RESTRICTED');
      const wait = await deps.guestLimiter.hit(request.ip);
      if (wait > 0) {
        reply.header('Retry-After', String(wait));
        throw new AppError('RATE_LIMITED');
      }
    },

    async admit(request, operation) {
      const uid = usageKey(ownerOf(request));
      const day = await deps.usage.consume(uid, operation);
      if (!day) throw new AppError('DAILY_LIMIT_REACHED');
      return {
        accepted: (row) => deps.usage.charge(row.id, uid, operation, day),
        cancelled: () => deps.usage.release(uid, operation, day),
      };
    },

    async beforeDownload(request, _row, attachment) {
      if (attachment && !mayDownload(request.uid ? 'authenticated' : 'guest')) {
        throw new AppError('DOWNLOAD_RESTRICTED');
      }
    },
  };
}
