/** Replicate's failures as the visitor sees them: a code and a message safe to show (the details go to the log). */

import { ProviderFailure } from '../errors.js';

export const MESSAGES = {
  misconfigured: 'The image provider is not configured correctly',
  timedOut: 'Provider timed out',
  badAnswer: 'The image provider sent an answer we could not read',
  unavailable: 'The image provider is unavailable. Please try again later',
  canceled: 'The image provider cancelled the request',
  rejected: (detail: string) => `Provider rejected the request: ${detail}`,
} as const;

type Failure = Exclude<keyof typeof MESSAGES, 'rejected'>;

/** A failure at the provider, told by `code`; its message is the visitor-safe text of MESSAGES. */
export class ProviderError extends ProviderFailure {
  readonly code: Failure | 'rejected';
  constructor(code: Failure);
  constructor(code: 'rejected', detail: string);
  constructor(code: Failure | 'rejected', detail = '') {
    super(code === 'rejected' ? MESSAGES.rejected(detail) : MESSAGES[code], true);
    this.name = 'ProviderError';
    this.code = code;
  }
}
