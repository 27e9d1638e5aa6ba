/**
 * The Firebase JS SDK, loaded only when someone signs in (this module is imported dynamically). Persistence is
 * in memory: the server's session cookie carries identity, so the SDK keeps nothing in the browser.
 */

import type { PublicAuthConfig } from '@ai-editor/core';
import { initializeApp } from 'firebase/app';
import {
  type Auth,
  browserPopupRedirectResolver,
  connectAuthEmulator,
  GoogleAuthProvider,
  initializeAuth,
  inMemoryPersistence,
  signInWithPopup,
  signOut,
} from 'firebase/auth';

let auth: Auth | undefined;

function authFor(settings: PublicAuthConfig): Auth {
  if (auth) return auth;
  const app = initializeApp(settings.firebase, 'ai-editor');
  auth = initializeAuth(app, { persistence: inMemoryPersistence, popupRedirectResolver: browserPopupRedirectResolver });
  // The page shows its own 'sign-in is local' notice; the SDK's banner would cover the footer.
  if (settings.emulatorUrl) connectAuthEmulator(auth, settings.emulatorUrl, { disableWarnings: true });
  return auth;
}

/** Google sign-in in a popup that always asks which account (docs/product.md#rules); resolves to the Firebase ID token. */
export async function popupSignIn(settings: PublicAuthConfig): Promise<string> {
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: 'select_account' });
  const credential = await signInWithPopup(authFor(settings), provider);
  return credential.user.getIdToken();
}

export async function firebaseSignOut(): Promise<void> {
  if (auth) await signOut(auth);
}
