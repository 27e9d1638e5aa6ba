import { AppError, guestMayUse, mayDownload, type OperationId } from '@ai-editor/core';
import { hitOrRefuse, type RateLimiter } from '../adapters/rate-limiter.js';
import type { ImageRow } from '../db/schema.js';
import { type Asker, ownerOf } from './sessions.js';
import { type UsageService, usageKey } from './usage.js';

/** A counted use, waiting to learn whether its submission became a job. */
export interface Admission {
  accepted(row: ImageRow): Promise<void>;
  cancelled(): Promise<void>;
}

/** Who submits: their session and user, and the client address (guests are also limited per address). */
export interface Submitter extends Asker {
  ip: string;
}

export interface Rules {
  /** Before a submission is validated: guests may use face-enhancement only, and only so often per address. */
  check(submitter: Submitter, operation: OperationId): Promise<void>;
  /** Once it is valid: counts the use against the visitor's daily allowance (429 past it); guests per session. */
  admit(asker: Asker, operation: OperationId): Promise<Admission | undefined>;
  /** The download route (an attachment) is for signed-in owners only; showing a result in the page is not. */
  beforeDownload(asker: Asker, row: ImageRow, attachment: boolean): Promise<void>;
}

export interface RulesDeps {
  usage: Pick<UsageService, 'consume' | 'charge' | 'release'>;
  /** Guest submissions per client address (the abuse guard beside the per-session allowance). */
  guestLimiter: RateLimiter;
}

/** The rules (docs/product.md#rules) as the server enforces them. The definitions live in core's rules. */
export function createRules(deps: RulesDeps): Rules {
  return {
    async check(submitter, operation) {
      if (submitter.uid) return;
      if (!guestMayUse(operation)) throw new AppError('FEATURE_RESTRICTED');
      await hitOrRefuse(deps.guestLimiter, submitter.ip);
    },

    async admit(asker, operation) {
      const uid = usageKey(ownerOf(asker));
      const day = await deps.usage.consume(uid, operation);
      if (!day) throw new AppError('DAILY_LIMIT_REACHED');
      return {
        accepted: (row) => deps.usage.charge(row.id, uid, operation, day),
        cancelled: () => deps.usage.release(uid, operation, day),
      };
    },

    async beforeDownload(asker, _row, attachment) {
      if (attachment && !mayDownload(asker.uid ? 'authenticated' : 'guest')) {
        throw new AppError('DOWNLOAD_RESTRICTED');
      }
    },
  };
}
