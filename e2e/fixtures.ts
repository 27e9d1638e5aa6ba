import { test as base, expect, type Page } from '@playwright/test';

export * from '@playwright/test';

/** What Chromium writes to the console for a refused resource, and what the page's listener below writes. */
const CSP_MESSAGE = /Content[- ]Security[- ]Policy|securitypolicyviolation/i;

/**
 * The browser suite's `test`: every page a test opens (popups included) is watched for Content-Security-Policy
 * violations, and a test that met one fails, naming the page and what was refused. Chromium reports most of them on
 * the console; a `securitypolicyviolation` listener installed before any script runs reports the ones it does not
 * (a refused `eval` that the page's own code caught, for one).
 */
export const test = base.extend<{ cspViolations: string[] }>({
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
});
