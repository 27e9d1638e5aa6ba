/**
 * Sign-in for tests: users are minted in the test run's Firebase Auth emulator through its REST API (the same
 * accounts the browser's popup would create), and a visitor signs in with the emulator's ID token through
 * `POST /api/session`, like the web app does. No switch turns the rules off.
 */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import {
  createEmulatorAccount,
  createGoogleAccount,
  emulatorAnswers,
} from '../../../test-support/emulator-accounts.js';
import type { TestServer, Visitor } from './server.js';

export interface TestUser {
  uid: string;
  email: string;
  name: string;
  /** The emulator's ID token (unsigned, accepted in emulator mode only); usable as `Authorization: Bearer`. */
  idToken: string;
}

function emulator() {
  const { port, projectId } = inject('authEmulator');
  return { url: `http://127.0.0.1:${port}`, projectId };
}

/** The settings a test server needs to trust the run's emulator (and not start one of its own). */
export function authTestEnv(): Record<string, string> {
  const { port, projectId } = inject('authEmulator');
  return {
    AUTH_MODE: 'emulator',
    FIREBASE_PROJECT_ID: projectId,
    AUTH_EMULATOR_PORT: String(port),
    AUTH_EMULATOR_START: 'false',
  };
}

let ready: Promise<void> | undefined;

/** Waits (once per test file) until the emulator answers; it starts in the background with the test run. */
export function emulatorReady(): Promise<void> {
  ready ??= emulatorAnswers(emulator().url);
  return ready;
}

/** Creates a new account in the emulator and returns its ID token. */
export async function mintUser(name = 'Test User', email = `user-${randomUUID()}@example.com`): Promise<TestUser> {
  await emulatorReady();
  const { uid, idToken } = await createEmulatorAccount(emulator().url, { email, displayName: name });
  return { uid, email, name, idToken };
}

/** A Google account (verified email) with this email: what ADMIN_EMAILS matches. */
export async function mintGoogleUser(email: string, name = 'Admin User'): Promise<TestUser> {
  await emulatorReady();
  const { uid, idToken } = await createGoogleAccount(emulator().url, { email, displayName: name });
  return { uid, email, name, idToken };
}

/** Signs the visitor in (its cookie jar now holds a session bound to the user); mints a user if none is given. */
export async function signIn(visitor: Visitor, user?: TestUser): Promise<TestUser> {
  const who = user ?? (await mintUser());
  const res = await visitor.fetch('/api/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ idToken: who.idToken }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return who;
}

export async function signOut(visitor: Visitor): Promise<void> {
  const res = await visitor.fetch('/api/session', { method: 'DELETE' });
  if (res.status !== 200) throw new Error(`sign-out failed: ${res.status} ${await res.text()}`);
}

/** A new visitor, signed in as a newly minted user (2 uses of each operation today, like any new user). */
export async function signedInVisitor(server: TestServer): Promise<Visitor> {
  const visitor = server.visitor();
  await signIn(visitor);
  return visitor;
}
