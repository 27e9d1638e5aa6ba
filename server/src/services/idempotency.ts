import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { AppError } from '@ai-editor/core';
import type { IdempotencyKeyRepository } from '../repositories/idempotency-keys.js';
import type { Owner } from '../repositories/images.js';
import type { Submission } from './uploads.js';

/** How long a key names its submission. */
export const IDEMPOTENCY_KEY_HOURS = 24;
/** A key held this long without a job belongs to a request that died midway: a retry may take it over. */
const ABANDONED_MS = 5 * 60_000;
/** A repeat that arrives while the first request is still being handled waits this long for its job. */
const WAIT_MS = 30_000;
const WAIT_STEP_MS = 25;

export interface IdempotencyDeps {
  keys: IdempotencyKeyRepository;
  now?: () => Date;
  waitMs?: number;
}

/** Keys belong to who sent them: a signed-in user by uid, a guest by session. */
export const keyOwner = (owner: Owner) => (owner.uid ? `uid:${owner.uid}` : `session:${owner.sessionId}`);

/** The same submission gives the same hash: operation, fields (in any order) and each file's bytes. */
export function fingerprint(submission: Submission): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify([submission.operation, Object.entries(submission.fields).sort()]));
  for (const f of [...submission.files].sort((a, b) => a.field.localeCompare(b.field))) {
    hash.update(`\n${f.field}\n`);
    hash.update(createHash('sha256').update(f.bytes).digest());
  }
  return hash.digest('base64url');
}

/**
 * One submission per `Idempotency-Key`: the first request with a key makes the job; a repeat (a double-click, a
 * client's retry) gets that job, even when it arrives while the first is still being handled. The claim is one
 * atomic statement (repositories/idempotency-keys.ts), so two requests at once never make two jobs.
 */
export class IdempotencyService {
  private readonly now: () => Date;

  constructor(private readonly deps: IdempotencyDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Runs `create` (which makes the job and returns its id) unless this owner's key already made one; then that
   * job's id is returned with `replayed`. A different submission under a used key is refused (422).
   */
  async once(
    owner: Owner,
    key: string,
    print: string,
    create: () => Promise<number>,
  ): Promise<{ imageId: number; replayed: boolean }> {
    const who = keyOwner(owner);
    const deadline = Date.now() + (this.deps.waitMs ?? WAIT_MS);
    for (;;) {
      const now = this.now().getTime();
      const claim = await this.deps.keys.claim(
        who,
        key,
        print,
        new Date(now - IDEMPOTENCY_KEY_HOURS * 3_600_000),
        new Date(now - ABANDONED_MS),
      );
      if (claim?.won) {
        let imageId: number;
        try {
          imageId = await create();
        } catch (err) {
          await this.deps.keys.release(who, key);
          throw err;
        }
        await this.deps.keys.attach(who, key, imageId);
        return { imageId, replayed: false };
      }
      if (claim && claim.fingerprint !== print) throw new AppError('IDEMPOTENCY_KEY_REUSED');
      if (claim?.imageId) return { imageId: claim.imageId, replayed: true };
      if (Date.now() > deadline) throw new AppError('IDEMPOTENCY_KEY_IN_USE');
      await delay(WAIT_STEP_MS);
    }
  }

  /** Forgets keys older than 24 hours (the retention sweep calls this). */
  sweep(): Promise<number> {
    return this.deps.keys.deleteBefore(new Date(this.now().getTime() - IDEMPOTENCY_KEY_HOURS * 3_600_000));
  }
}
