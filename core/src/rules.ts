import type { OperationUsage, UserType } from './api/me.js';
import { LIMITS } from './limits.js';
import { getOperation, type OperationId } from './operations.js';

/**
 * The product's rules (docs/product.md#upload-rules, #rules), defined once: the server enforces them, the web app mirrors them so that it
 * can say no before uploading. Limits are passed in because the server may configure them.
 */

/** The account menu's label for each user type (docs/product.md#rules). */
export const USER_TYPE_LABELS: Record<UserType, string> = { guest: 'Guest', authenticated: 'Free User' };

/** Guests may use only the operations the catalogue opens to them (face-enhancement). */
export function guestMayUse(operation: OperationId): boolean {
  return getOperation(operation).guestAccess;
}

export function mayUse(userType: UserType, operation: OperationId): boolean {
  return userType === 'authenticated' || guestMayUse(operation);
}

/** Only signed-in users may download results. */
export function mayDownload(userType: UserType): boolean {
  return userType === 'authenticated';
}

/** The daily count resets at midnight UTC: the day a use counts towards, as YYYY-MM-DD. */
export function utcDay(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The next midnight UTC, when today's uses reset. */
export function nextUtcMidnight(now: Date = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/**
 * One operation's uses today. Guests are counted per session on the operations open to them, against the same daily
 * allowance as a signed-in user (so signing in never lowers it); the others are closed to them (limit null).
 */
export function operationUsage(
  userType: UserType,
  operation: OperationId,
  used: number,
  limit: number = LIMITS.dailyUsesPerOperation,
): OperationUsage {
  if (userType === 'guest' && !guestMayUse(operation)) return { allowed: false, used: 0, limit: null, left: null };
  return { allowed: true, used, limit, left: Math.max(0, limit - used) };
}

/** '1 of 2 uses left today'. */
export function usesLeftText(left: number, limit: number): string {
  return `${left} of ${limit} use${limit === 1 ? '' : 's'} left today`;
}

/**
 * Whether a job's result may be tried again for free ('Try another fill'): its tool's catalogue entry says so (the
 * fills made here, whose source choices vary with each try). A fill by the model provider (its metadata names it)
 * is not: each try would be a paid prediction.
 */
export function mayTryAgain(operation: OperationId, metadata: Readonly<Record<string, unknown>>): boolean {
  return getOperation(operation).tryAgain === true && metadata.provider === undefined;
}
