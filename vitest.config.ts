import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'core', include: ['core/test/**/*.test.ts'] } },
      {
        // The web app's units (hooks, validation) in a DOM (happy-dom), with the app's own `@/` alias.
        plugins: [react()],
        resolve: { alias: { '@': fileURLToPath(new URL('./web/src', import.meta.url)) } },
        test: { name: 'web', include: ['web/test/**/*.test.{ts,tsx}'], environment: 'happy-dom' },
      },
      {
        test: {
          name: 'server',
          include: ['server/test/**/*.test.ts'],
          // One Firebase Auth emulator for the run; suites sign users in through support/auth.ts.
          globalSetup: ['server/test/support/auth-emulator.global.ts'],
          testTimeout: 60_000,
          // Long enough for the run's Auth emulator to come up on a busy machine (startTestServer waits for it).
          hookTimeout: 180_000,
          // Engines are CPU-heavy and the machine has 2 cores: one test file at a time.
          fileParallelism: false,
          // On CI's loaded machine a timing-sensitive test gets one more try; a real failure fails twice.
          retry: process.env.CI ? 1 : 0,
        },
      },
    ],
  },
});
