import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { type AuthEmulator, freePort, startAuthEmulator } from '../../src/adapters/firebase-emulator.js';

/**
 * The emulator `npm start` runs beside the app: loopback only, no UI, and accounts that survive a restart
 * (exported to the data directory on stop, imported at the next start). Two real starts: slow on a busy machine.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-emulator-'));
let emulator: AuthEmulator | undefined;
afterAll(async () => {
  await emulator?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const api = (url: string, method: string, body: unknown) =>
  fetch(`${url}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=demo-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

it('keeps accounts across a restart, with firebase.json on loopback and the UI off', async () => {
  const opts = { projectId: 'demo-ai-editor', host: '127.0.0.1' as const, port: await freePort(), dataDir };
  emulator = await startAuthEmulator(opts);
  await emulator.ready();
  const config = JSON.parse(fs.readFileSync(path.join(dataDir, 'firebase.json'), 'utf8'));
  expect(config.emulators.ui).toEqual({ enabled: false });
  expect(config.emulators.auth).toEqual({ host: '127.0.0.1', port: opts.port });
  const account = { email: 'kept@example.com', password: 'kept-secret', displayName: 'Kept Across Restarts' };
  expect((await api(emulator.url, 'signUp', account)).status).toBe(200);
  await emulator.stop();
  expect(fs.existsSync(path.join(dataDir, 'export', 'firebase-export-metadata.json'))).toBe(true);

  emulator = await startAuthEmulator(opts);
  await emulator.ready();
  const res = await api(emulator.url, 'signInWithPassword', { ...account, returnSecureToken: true });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(((await res.json()) as { email: string }).email).toBe(account.email);
}, 420_000);
