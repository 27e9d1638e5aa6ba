import { createEmulatorAccount, emulatorAnswers } from '../../test-support/emulator-accounts.js';

/**
 * Signs a new user in on the server at `base` through the Auth emulator it runs beside it (tools other than face
 * enhancement need a signed-in user) and returns the session cookie to send with each request.
 */
export async function signIn(base: string): Promise<string> {
  const { auth } = (await (await fetch(`${base}/api/config`)).json()) as { auth: { emulatorUrl: string | null } };
  if (!auth.emulatorUrl) throw new Error('the benchmark signs in through the Auth emulator (AUTH_MODE=emulator)');
  // A loaded machine may take minutes to start the emulator.
  await emulatorAnswers(auth.emulatorUrl, 600_000);
  const { idToken } = await createEmulatorAccount(auth.emulatorUrl, { email: `bench-${Date.now()}@example.com` });
  const res = await fetch(`${base}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ idToken }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status}`);
  return (res.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
}
