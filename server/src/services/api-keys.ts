import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type ApiKey, AppError, type CreatedKey } from '@ai-editor/core';
import type { ApiKeyRow } from '../db/schema.js';
import type { ApiKeyRepository } from '../repositories/api-keys.js';
import type { VerifiedUser } from './auth/verifier.js';

/** Every key starts with this, so that it is recognisable (and told apart from a Firebase ID token). */
export const API_KEY_PREFIX = 'aie_';
/** `aie_` plus this many characters of the key are kept in clear, to find it and to show it in the list. */
const PREFIX_CHARS = 8;
/** A key's `lastUsedAt` is written at most this often. */
const TOUCH_INTERVAL_MS = 60_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

export const isApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);

/** A key's owner as the identity hook sees it, and which key it was. */
export interface KeyUser extends VerifiedUser {
  keyId: number;
}

/**
 * Personal API keys: 32 random bytes (256 bits) in base64url after `aie_`; only the SHA-256 of the key is stored
 * (a hash suffices for secrets this random: no password stretching is needed). A key is looked up by its prefix
 * and its hash compared with timingSafeEqual.
 */
export class ApiKeyService {
  constructor(private readonly keys: ApiKeyRepository) {}

  async create(user: VerifiedUser, name: string): Promise<CreatedKey> {
    const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
    const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const row = await this.keys.insert({
      uid: user.uid,
      name,
      prefix: key.slice(0, API_KEY_PREFIX.length + PREFIX_CHARS),
      keyHash: sha256(key).toString('hex'),
      webhookSecret,
      email: user.email ?? null,
      displayName: user.name ?? null,
      picture: user.picture ?? null,
    });
    return { id: row.id, name: row.name, key, webhookSecret, createdAt: row.createdAt.toISOString() };
  }

  async list(uid: string): Promise<ApiKey[]> {
    return (await this.keys.listFor(uid)).map((row) => ({
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      createdAt: row.createdAt.toISOString(),
      lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    }));
  }

  async revoke(uid: string, id: number): Promise<void> {
    if (!(await this.keys.revoke(id, uid))) throw new AppError('API_KEY_NOT_FOUND');
  }

  /** The key's owner; an unknown or revoked key is a 401. Records the use (at most once a minute). */
  async authenticate(key: string): Promise<KeyUser> {
    const row = await this.match(key);
    if (!row) throw new AppError('INVALID_API_KEY');
    if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS) {
      await this.keys.touch(row.id, TOUCH_INTERVAL_MS);
    }
    return {
      uid: row.uid,
      email: row.email ?? undefined,
      name: row.displayName ?? undefined,
      picture: row.picture ?? undefined,
      keyId: row.id,
    };
  }

  /** The key's webhook secret (revoked keys included: their jobs' webhooks are still signed). */
  async webhookSecret(id: number): Promise<string | undefined> {
    return (await this.keys.find(id))?.webhookSecret;
  }

  private async match(key: string): Promise<ApiKeyRow | undefined> {
    if (!isApiKey(key) || key.length > 200) return undefined;
    const hash = sha256(key);
    let found: ApiKeyRow | undefined;
    for (const row of await this.keys.byPrefix(key.slice(0, API_KEY_PREFIX.length + PREFIX_CHARS))) {
      const stored = Buffer.from(row.keyHash, 'hex');
      if (stored.length === hash.length && timingSafeEqual(stored, hash)) found = row;
    }
    return found;
  }
}
