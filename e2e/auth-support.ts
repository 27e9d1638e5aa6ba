import type { ClientConfig } from '@ai-editor/core';
/**
 * Sign-in for the browser tests. `signIn(page)` makes the page's visitor a signed-in user the quick way: a new
 * account is minted in the server's Firebase Auth emulator through its REST API and its ID token is sent to
 * `POST /api/session` from the page's own cookie jar, exactly what the web app does after the popup (auth.spec.ts
 * goes through the real popup). `serveGoogleStandIns` answers the Google scripts the offline browser cannot reach.
 */

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { type BrowserContext, expect, type Page } from '@playwright/test';
import { createEmulatorAccount, createGoogleAccount, emulatorAnswers } from '../test-support/emulator-accounts';

const GAPI_STAND_IN = fs.readFileSync(new URL('./gapi-stand-in.js', import.meta.url), 'utf8');

/** The Auth emulator this server uses (from `GET /api/config`), once it answers. */
export async function emulatorUrl(page: Page): Promise<string> {
  const config = (await (await page.request.get('/api/config')).json()) as ClientConfig;
  const url = config.auth.emulatorUrl;
  if (!url) throw new Error('the server is not in emulator mode');
  await emulatorAnswers(url);
  return url;
}

export interface SignedInUser {
  uid: string;
  name: string;
  email: string;
}

export async function signIn(page: Page, name = 'Test User'): Promise<SignedInUser> {
  const email = `e2e-${randomUUID()}@example.com`;
  const { uid, idToken } = await createEmulatorAccount(await emulatorUrl(page), { email, displayName: name });
  const session = await page.request.post('/api/session', { data: { idToken } });
  expect(session.status()).toBe(200);
  return { uid, name, email };
}

/** Signs the page's visitor in as a Google account with this email (verified, as Google sign-ins are). */
export async function signInWithGoogleEmail(page: Page, email: string, name = 'Admin User'): Promise<SignedInUser> {
  const { uid, idToken } = await createGoogleAccount(await emulatorUrl(page), { email, displayName: name });
  const session = await page.request.post('/api/session', { data: { idToken } });
  expect(session.status()).toBe(200);
  return { uid, name, email };
}

/**
 * Google's gapi loader (the Firebase SDK and the emulator's iframe load it) is served from gapi-stand-in.js; the
 * emulator's sign-in page also asks for web fonts and Material styles from CDNs, which are refused at once.
 */
export async function serveGoogleStandIns(context: BrowserContext): Promise<void> {
  await context.route(/^https:\/\/apis\.google\.com\/js\/api\.js/, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: GAPI_STAND_IN }),
  );
  await context.route(/^https:\/\/(unpkg\.com|fonts\.googleapis\.com|fonts\.gstatic\.com)\//, (route) => route.abort());
}
