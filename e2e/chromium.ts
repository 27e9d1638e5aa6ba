import type { LaunchOptions } from 'playwright-core';

/**
 * Debian's Chromium (Playwright's own browser download cannot work offline), with the flags this machine's closed
 * network needs: no background connections, component updates or sync. The browser tests and the web benchmark
 * launch it the same way.
 */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
