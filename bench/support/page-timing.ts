import type { Browser, BrowserContext, Page } from 'playwright-core';
import { OPERATIONS } from '../../core/src/index.js';

/**
 * What the browser benches share: a context signed in (the session cookie from sign-in.ts) with every tool's tutorial
 * marked seen, and a time measured in the page itself, from `window.startedAt` to `window.shownAt`, which each
 * bench's init script sets (the first time only: `??=`) on the events it times.
 */
export type Marks = { startedAt?: number; shownAt?: number };

export async function signedInContext(
  browser: Browser,
  base: string,
  cookie: string,
  init: () => void,
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const [name, value] = cookie.split(/=(.*)/s) as [string, string];
  await context.addCookies([{ name, value, url: base }]);
  await context.addInitScript(
    (ids: string[]) => {
      for (const id of ids) localStorage.setItem(`tutorial-seen:${id}`, '1');
    },
    OPERATIONS.map((o) => o.id),
  );
  await context.addInitScript(init);
  return context;
}

/** Clears the marks, runs `act`, and answers the page's time from the start mark to the shown mark. */
export async function timedInPage(page: Page, act: () => Promise<void>, timeoutMs: number): Promise<number> {
  await page.evaluate(() => {
    const w = window as unknown as Marks;
    w.startedAt = undefined;
    w.shownAt = undefined;
  });
  await act();
  const handle = await page.waitForFunction(
    () => {
      const w = window as unknown as Marks;
      return w.shownAt !== undefined && w.startedAt !== undefined && w.shownAt - w.startedAt;
    },
    undefined,
    { timeout: timeoutMs },
  );
  return (await handle.jsonValue()) as number;
}
