import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Owner } from '../repositories/images.js';

export const SESSION_COOKIE = 'aie_sid';
const ONE_YEAR_S = 365 * 24 * 3600;

/** Who is asking: the visitor's session, the signed-in user if the session is bound to one. */
export interface Asker {
  sessionId: string;
  uid?: string;
}

/** Whose jobs a request may see: its session's, and once signed in its user's. */
export function ownerOf(asker: Asker): Owner {
  return { sessionId: asker.sessionId, uid: asker.uid };
}

/** The cookie-signing secret: configured, or generated once and kept in the data directory. */
export function sessionSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'session-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('hex');
    fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return fs.readFileSync(file, 'utf8').trim();
  }
}

/** A fresh session: an unguessable id in a signed, HTTP-only, SameSite=Lax cookie kept a year (docs/product.md#sessions). */
export function newSession(https: boolean) {
  return {
    id: randomBytes(18).toString('base64url'),
    cookie: {
      name: SESSION_COOKIE,
      options: { signed: true, httpOnly: true, sameSite: 'lax', secure: https, path: '/', maxAge: ONE_YEAR_S } as const,
    },
  };
}
