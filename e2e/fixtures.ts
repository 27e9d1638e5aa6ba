import fs from 'node:fs';
import net from 'node:net';
import type { ClientConfig } from '@ai-editor/core';
import { test as base, expect, type Page } from '@playwright/test';
import { emulatorAnswers } from '../test-support/emulator-accounts';
import { AccessibilityGuard } from './a11y-guard';
import { type RunningServer, startServer } from './server';

export * from '@playwright/test';

/** What Chromium writes to the console for a refused resource, and what the page's listener below writes. */
const CSP_MESSAGE = /Content[- ]Security[- ]Policy|securitypolicyviolation/i;

/**
 * The browser suite's `test`: every page a test opens (popups included) is watched for Content-Security-Policy
 * violations, and a test that met one fails, naming the page and what was refused. Chromium reports most of them on
 * the console; a `securitypolicyviolation` listener installed before any script runs reports the ones it does not
 * (a refused `eval` that the page's own code caught, for one).
 */
export const test = base.extend<{ cspViolations: string[]; a11y: AccessibilityGuard }>({
  cspViolations: [
    async ({ context }, use) => {
      const seen: string[] = [];
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          console.error(
            `securitypolicyviolation: ${e.effectiveDirective} refused ${e.blockedURI || 'inline code'} (${e.sourceFile}:${e.lineNumber})`,
          );
        });
      });
      const watch = (page: Page) =>
        page.on('console', (m) => {
          if (CSP_MESSAGE.test(m.text())) seen.push(`${page.url()}: ${m.text()}`);
        });
      for (const page of context.pages()) watch(page);
      context.on('page', watch);
      await use(seen);
      expect(seen, 'Content-Security-Policy violations on the pages of this test').toEqual([]);
    },
    { auto: true },
  ],
  /**
   * Every state a test visits is checked with axe (e2e/a11y-guard.ts: the states it takes screenshots of, and the
   * pages it leaves open), and a test that met a serious or critical violation fails, naming the rule and the nodes.
   * `a11y.check(page)` checks a state that a test neither pictures nor ends in. (`page` is asked for so that it is
   * still open when the guard looks at it last.)
   */
  a11y: [
    async ({ browser, context, page: _page }, use, testInfo) => {
      const guard = new AccessibilityGuard(browser, context);
      await use(guard);
      if (testInfo.status !== testInfo.expectedStatus) return guard.stop();
      await guard.finish();
      expect(guard.found, 'serious or critical axe violations in the states this test visited').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * An even port whose next port is free too (the server's Auth emulator takes it), below the kernel's ephemeral
 * range (32768 up), where any outgoing connection may take a port between the probe and the server's start.
 */
export async function freePortPair(): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const probe = net.createServer().once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
  for (;;) {
    const port = 10_000 + 2 * Math.floor(Math.random() * 11_000);
    if ((await free(port)) && (await free(port + 1))) return port;
  }
}

/**
 * `test` with a server of its own for each worker, started with `env` and ready to sign in, as the pages' base URL:
 * for tests that need a configuration unlike the shared server's, or a queue no other test shares.
 */
export function testOnOwnServer(env: Record<string, string> = {}) {
  return test.extend<object, { ownServer: RunningServer }>({
    ownServer: [
      async ({}, use) => {
        const port = await freePortPair();
        const server = await startServer({ port, env: { AUTH_EMULATOR_PORT: String(port + 1), ...env } });
        const config = (await (await fetch(`${server.url}/api/config`)).json()) as ClientConfig;
        // The Auth emulator starts beside the server and can take minutes on a busy machine; tests sign users in.
        if (config.auth.emulatorUrl) await emulatorAnswers(config.auth.emulatorUrl, 200_000);
        await use(server);
        await server.stop();
        fs.rmSync(server.dataDir, { recursive: true, force: true });
      },
      { scope: 'worker', timeout: 400_000 },
    ],
    baseURL: async ({ ownServer }, use) => use(ownServer.url),
  });
}
