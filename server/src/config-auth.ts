import path from 'node:path';
import type { FirebaseWebConfig, PublicAuthConfig } from '@ai-editor/core';

/** Where Google publishes the keys that sign Firebase ID tokens (JWK form of the securetoken service account). */
export const GOOGLE_SECURETOKEN_JWKS_URL =
  'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';

export const DEFAULT_EMULATOR_PROJECT = 'demo-ai-editor';

export interface AuthConfig {
  /** 'emulator': the local Firebase Auth emulator, unsigned tokens; 'firebase': a real project, signed tokens. */
  mode: 'emulator' | 'firebase';
  projectId: string;
  web: FirebaseWebConfig;
  /** Google's key set for ID tokens; configurable so tests can serve their own. */
  jwksUrl: string;
  emulator: {
    /** Always loopback: the emulator accepts any sign-in and must not be reachable from elsewhere. */
    host: '127.0.0.1';
    port: number;
    /** Start it beside the app (false: one is already running on `port`, e.g. the test run's). */
    start: boolean;
    /** Accounts are imported from and exported to here, so they survive restarts. */
    dataDir: string;
  };
  production: boolean;
}

/** FIREBASE_X, or VITE_FIREBASE_X as the original web app named its settings. */
function firebaseVar(env: NodeJS.ProcessEnv, name: string): string | undefined {
  return env[`FIREBASE_${name}`] || env[`VITE_FIREBASE_${name}`] || undefined;
}

export function loadAuthConfig(env: NodeJS.ProcessEnv, dataDir: string): AuthConfig {
  const configuredProject = firebaseVar(env, 'PROJECT_ID');
  const rawMode = env.AUTH_MODE || (configuredProject ? 'firebase' : 'emulator');
  if (rawMode !== 'emulator' && rawMode !== 'firebase') {
    throw new Error(`AUTH_MODE must be "emulator" or "firebase", got "${rawMode}"`);
  }
  const projectId = configuredProject ?? (rawMode === 'emulator' ? DEFAULT_EMULATOR_PROJECT : '');
  const port = Number(env.AUTH_EMULATOR_PORT || 9099);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    throw new Error(`AUTH_EMULATOR_PORT must be a port number, got "${env.AUTH_EMULATOR_PORT}"`);
  }
  return {
    mode: rawMode,
    projectId,
    web: {
      // The emulator takes any API key; the SDK only needs a non-empty one.
      apiKey: firebaseVar(env, 'API_KEY') ?? (rawMode === 'emulator' ? 'demo-api-key' : ''),
      authDomain: firebaseVar(env, 'AUTH_DOMAIN') ?? `${projectId}.firebaseapp.com`,
      projectId,
      storageBucket: firebaseVar(env, 'STORAGE_BUCKET'),
      messagingSenderId: firebaseVar(env, 'MESSAGING_SENDER_ID'),
      appId: firebaseVar(env, 'APP_ID'),
      measurementId: firebaseVar(env, 'MEASUREMENT_ID'),
    },
    jwksUrl: env.AUTH_JWKS_URL || GOOGLE_SECURETOKEN_JWKS_URL,
    emulator: {
      host: '127.0.0.1',
      port,
      start: env.AUTH_EMULATOR_START !== 'false',
      dataDir: path.resolve(env.AUTH_EMULATOR_DATA_DIR ?? path.join(dataDir, 'auth-emulator')),
    },
    production: env.NODE_ENV === 'production',
  };
}

/**
 * Refuses configurations that would let anyone sign in as anyone: emulator mode accepts unsigned tokens, so it
 * runs only outside production and only for a `demo-` project (which Firebase never serves for real).
 */
export function assertAuthConfig(auth: AuthConfig): void {
  if (auth.mode === 'emulator') {
    if (auth.production) {
      throw new Error(
        'AUTH_MODE=emulator accepts unsigned sign-in tokens and is refused when NODE_ENV=production. ' +
          'Configure a Firebase project (FIREBASE_PROJECT_ID, FIREBASE_API_KEY, ...) instead.',
      );
    }
    if (!auth.projectId.startsWith('demo-')) {
      throw new Error(
        `AUTH_MODE=emulator needs a project id starting with "demo-" (got "${auth.projectId}"), ` +
          'so that emulator tokens can never be mistaken for a real project.',
      );
    }
    return;
  }
  if (!auth.projectId) throw new Error('AUTH_MODE=firebase needs FIREBASE_PROJECT_ID');
  if (!auth.web.apiKey) throw new Error('AUTH_MODE=firebase needs FIREBASE_API_KEY for the web app');
}

/** What `GET /api/config` tells the browser about sign-in. */
export function publicAuthConfig(auth: AuthConfig): PublicAuthConfig {
  return {
    mode: auth.mode,
    firebase: auth.web,
    /** Where the browser reaches the emulator (same machine: it listens on loopback only). */
    emulatorUrl: auth.mode === 'emulator' ? `http://${auth.emulator.host}:${auth.emulator.port}` : null,
  };
}
