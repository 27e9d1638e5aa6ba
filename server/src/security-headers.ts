import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { publicAuthConfig } from './config-auth.js';

/** Google's script loader the Firebase SDK uses for its hidden sign-in iframe. */
const GAPI = 'https://apis.google.com';
/** Firebase Auth's REST endpoints (sign-in, token refresh). */
const FIREBASE_APIS = ['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com'];
/** Where Google's account pictures come from (the account menu shows the signed-in user's). */
const PROFILE_PICTURES = 'https://*.googleusercontent.com';
/** What the AdSense script loads: itself, its frames, its images and its reports. */
const AD_ORIGINS = [
  'https://pagead2.googlesyndication.com',
  'https://*.googlesyndication.com',
  'https://*.doubleclick.net',
  'https://*.google.com',
  'https://*.gstatic.com',
  'https://*.adtrafficquality.google',
];

/**
 * The `sha256-…` sources of the inline scripts in the built index.html (the prerender's two small guards), so
 * that the policy allows exactly those and no other inline script.
 */
export function inlineScriptHashes(webDistDir: string): string[] {
  let html: string;
  try {
    html = fs.readFileSync(path.join(webDistDir, 'index.html'), 'utf8');
  } catch {
    return [];
  }
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (m) =>
      `'sha256-${createHash('sha256')
        .update(m[1] as string)
        .digest('base64')}'`,
  );
}

/** The Content-Security-Policy directives this deployment's pages work under (sign-in mode and ads included). */
export function cspDirectives(config: Config): Record<string, string[]> {
  const auth = publicAuthConfig(config.auth);
  const signIn = auth.emulatorUrl ? [auth.emulatorUrl] : [`https://${auth.firebase.authDomain}`];
  const ads = config.ads.client ? AD_ORIGINS : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...inlineScriptHashes(config.webDistDir), GAPI, ...ads],
    // Prerendered markup and the UI kit set style attributes; styles cannot run code.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', PROFILE_PICTURES, ...ads],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...FIREBASE_APIS, ...signIn, ...ads],
    'frame-src': [...signIn, ...ads],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/**
 * Security headers on every answer (helmet): the policy above, nosniff, a strict Referrer-Policy, no framing.
 * The opener policy lets the sign-in popup talk back to the page (Firebase's popup flow needs that).
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    // Served over plain HTTP on a laptop as well as behind TLS: HSTS is the proxy's to send.
    strictTransportSecurity: false,
  });
}
