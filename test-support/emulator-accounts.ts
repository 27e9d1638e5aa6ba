/**
 * Accounts in a Firebase Auth emulator, created through its REST API: the accounts the browser's popup would
 * create. Shared by the server tests, the browser tests and the pipeline benchmark, so it imports no test runner.
 */
import { randomUUID } from 'node:crypto';

export interface EmulatorAccount {
  uid: string;
  /** The emulator's ID token (unsigned, accepted in emulator mode only); for `POST /api/session` or a Bearer. */
  idToken: string;
}

/** Waits until the emulator at `url` answers: it starts in the background, which takes a while on a busy machine. */
export async function emulatorAnswers(url: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fetch(`${url}/`).catch(() => undefined))?.ok) {
    if (Date.now() > deadline) throw new Error(`the Auth emulator at ${url} did not answer`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Creates an account with this email (and display name) and a random password. */
export async function createEmulatorAccount(
  url: string,
  { email, displayName }: { email: string; displayName?: string },
): Promise<EmulatorAccount> {
  const res = await fetch(`${url}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: `pw-${randomUUID()}`, displayName, returnSecureToken: true }),
  });
  if (!res.ok) throw new Error(`emulator signUp failed: ${res.status} ${await res.text()}`);
  const { localId, idToken } = (await res.json()) as { localId: string; idToken: string };
  return { uid: localId, idToken };
}

/**
 * Signs in to the emulator as a Google account with this email, as the browser's popup does: the account's email
 * is verified (`email_verified` in its ID token), as Google sign-ins always are.
 */
export async function createGoogleAccount(
  url: string,
  { email, displayName }: { email: string; displayName?: string },
): Promise<EmulatorAccount> {
  const claims = { sub: `google-${randomUUID()}`, email, email_verified: true, name: displayName };
  const res = await fetch(`${url}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=demo-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      requestUri: 'http://localhost',
      postBody: `id_token=${encodeURIComponent(JSON.stringify(claims))}&providerId=google.com`,
      returnSecureToken: true,
      returnIdpCredential: true,
    }),
  });
  if (!res.ok) throw new Error(`emulator signInWithIdp failed: ${res.status} ${await res.text()}`);
  const { localId, idToken } = (await res.json()) as { localId: string; idToken: string };
  return { uid: localId, idToken };
}
