import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, startAuthEmulator } from '../../src/adapters/firebase-emulator.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test run's Firebase Auth emulator (support/auth.ts signs visitors in with users minted there). */
    authEmulator: { port: number; projectId: string };
  }
}

/**
 * One Auth emulator for the whole server test run, started with the same adapter as `npm start`. Its own
 * `demo-` project keeps it apart from a developer's running app. Not awaited here: it starts in the background
 * and support/auth.ts waits for it only in the suites that sign someone in.
 */
export default async function setup(project: TestProject) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-auth-emulator-'));
  const port = await freePort();
  const projectId = 'demo-ai-editor-test';
  const emulator = await startAuthEmulator({ projectId, host: '127.0.0.1', port, dataDir });
  project.provide('authEmulator', { port, projectId });
  return async () => {
    await emulator.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
