import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from '@playwright/test';

/** The impacts that fail a test. */
const FAILING = new Set(['serious', 'critical']);

/** The serious and critical axe violations of the page as it is now, one line each: rule, impact, page, nodes. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Motion reduced while axe looks: a colour measured mid-fade is not the colour the visitor reads.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  try {
    const { violations } = await new AxeBuilder({ page }).analyze();
    return violations
      .filter((v) => FAILING.has(v.impact ?? ''))
      .map((v) => `${v.id} (${v.impact}) on ${page.url()}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  } finally {
    if (!page.isClosed()) await page.emulateMedia({ reducedMotion: null });
  }
}

/**
 * Checks the states a browser test visits with axe: every state it takes a screenshot of (the states a test looks
 * at: menus open, dialogs, results), checked just before the picture, and every page still open when it ends.
 * Pages of contexts the test makes itself (`browser.newContext`, `browser.newPage`) are watched too.
 */
export class AccessibilityGuard {
  readonly found: string[] = [];
  private readonly watched = new WeakSet<Page>();
  private readonly contexts = new Set<BrowserContext>();
  private readonly restore: (() => void)[] = [];

  constructor(browser: Browser, context: BrowserContext) {
    this.watchContext(context);
    const { newContext, newPage } = browser;
    browser.newContext = async (...args) => this.watchContext(await newContext.apply(browser, args));
    browser.newPage = async (...args) => {
      const page = await newPage.apply(browser, args);
      this.watchContext(page.context());
      return page;
    };
    this.restore.push(() => {
      browser.newContext = newContext;
      browser.newPage = newPage;
    });
  }

  /** Checks the page now, if it is the app's (not the Auth emulator's popup, nor a test's own page). */
  async check(page: Page): Promise<void> {
    try {
      if (!(await page.locator('#root').count())) return;
      this.found.push(...(await axeViolations(page)));
    } catch (err) {
      // A page that closed or navigated away while axe ran has no state to judge.
      if (!page.isClosed() && !/navigat|destroyed|closed/i.test(String(err))) throw err;
    }
  }

  /** Stops watching the test's contexts. */
  stop(): void {
    for (const undo of this.restore.splice(0)) undo();
  }

  /** Checks every page still open, and stops watching. */
  async finish(): Promise<void> {
    this.stop();
    for (const context of this.contexts) {
      for (const page of context.pages()) if (!page.isClosed()) await this.check(page);
    }
  }

  private watchContext(context: BrowserContext): BrowserContext {
    if (this.contexts.has(context)) return context;
    this.contexts.add(context);
    for (const page of context.pages()) this.watchPage(page);
    context.on('page', (page) => this.watchPage(page));
    return context;
  }

  private watchPage(page: Page): void {
    if (this.watched.has(page)) return;
    this.watched.add(page);
    const screenshot = page.screenshot.bind(page);
    page.screenshot = async (options) => {
      await this.check(page);
      return screenshot(options);
    };
  }
}
