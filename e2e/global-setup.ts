import fs from 'node:fs';
import path from 'node:path';
import { ROOT, startServer } from './server';

/** Starts the real server once for the whole run; the build in web/dist must exist (`npm run test:e2e` makes it). */
export default async function globalSetup() {
  // The README's pictures (readme-shots.spec.ts) start a server of their own.
  if (process.env.README_SHOTS) return;
  if (!fs.existsSync(path.join(ROOT, 'web/dist/index.html'))) {
    throw new Error('web/dist is missing: run `npm run build` (or `npm run test:e2e`, which builds first)');
  }
  const server = await startServer({
    port: Number(process.env.E2E_PORT),
    // The status test checks that an engine switched off in configuration shows as unavailable.
    // The Auth emulator beside it gets its own port (not the default 9099, which a developer's app may hold).
    env: { ENGINE_SUPER_RESOLUTION: 'off', AUTH_EMULATOR_PORT: String(Number(process.env.E2E_PORT) + 1) },
    // A machine busy with other work may need longer than the default 120 s to start the server.
    readyTimeoutMs: Number(process.env.E2E_READY_TIMEOUT_MS) || undefined,
  });
  return async () => {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  };
}
