import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium';

// One port for the whole run: the config is evaluated again in each worker, which inherit this variable. Even, and
// with room for the offsets the specs add, below the kernel's ephemeral range (32768 up): there an outgoing
// connection may take the port before the server binds it.
process.env.E2E_PORT ??= String(10_000 + 2 * Math.floor(Math.random() * 11_000));

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../test-output/playwright',
  globalSetup: './global-setup.ts',
  // The machine is small and shared: two workers, generous timeouts.
  workers: 2,
  timeout: 60_000,
  // CI shares this small machine with its services: a test that fails once is run again, and is reported
  // as flaky in the list; a broken feature fails both times.
  retries: process.env.CI ? 1 : 0,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${process.env.E2E_PORT}`,
    browserName: 'chromium',
    headless: true,
    launchOptions: chromiumLaunchOptions,
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
