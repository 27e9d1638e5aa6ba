import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { chromiumLaunchOptions } from '../../e2e/chromium.js';
import { startServer } from '../../e2e/server.js';
import { type Marks, signedInContext, timedInPage } from '../support/page-timing.js';
import { signIn } from '../support/sign-in.js';

/**
 * Select object as the visitor sees it: in Chromium, on the object removal page of the real server (its engine
 * host, the model, the Auth emulator for sign-in), photos at 1920x1280, each time to the frame after the mask is
 * drawn (read in the page). Per photo: the first click, timed from the photo chosen (the page prepares it from then
 * on), with Select object chosen and the first object clicked as soon as the photo shows; then later clicks, timed
 * from the pointer going down: the other object, Larger (when there is a step above it), and an Alt-click taking the
 * first object away. The first photo warms the engine up and is not counted.
 */
export interface ClickTimes {
  first: number[];
  later: number[];
  /** Each later click in three parts: the page before its request, the request, the page after the answer. */
  laterParts: { before: number; request: number; after: number }[];
  /** Each first click's preparation request (sent to answered) and its selection request. */
  firstParts: { prepare: number; request: number }[];
}

type Photo = { name: string; image: Buffer; width: number; height: number; points: { x: number; y: number }[] };

const SIZE = { width: 1920, height: 1280 };

export async function clickToScreen(photos: Photo[]): Promise<ClickTimes> {
  if (!fs.existsSync(path.resolve(import.meta.dirname, '../../web/dist/index.html'))) {
    throw new Error('the browser part needs the web build: npm run build');
  }
  const port = 10_000 + 2 * Math.floor(Math.random() * 10_000); // below the ephemeral range (32768 up)
  const server = await startServer({
    port,
    env: { DAILY_USES_PER_OPERATION: '1000', AUTH_EMULATOR_PORT: String(port + 1) },
    readyTimeoutMs: 600_000,
    untilWarm: true,
  });
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const cookie = await signIn(server.url);
    const context = await signedInContext(browser, server.url, cookie, timerScript);
    const page = await context.newPage();
    const times: ClickTimes = { first: [], later: [], laterParts: [], firstParts: [] };
    for (const [k, photo] of photos.entries()) {
      const measured = await onePhoto(page, server.url, photo);
      if (k === 0) continue;
      times.first.push(measured.first.total);
      times.firstParts.push(measured.first.parts);
      times.later.push(...measured.later.map((c) => c.total));
      times.laterParts.push(...measured.later.map((c) => c.parts));
      console.error(`  clicked in the browser: ${photo.name}`);
    }
    return times;
  } finally {
    await browser.close();
    await server.stop();
  }
}

/**
 * Runs in the page before its scripts: `startedAt` when a pointer goes down, `shownAt` at the second animation frame
 * after the busy mark goes (the first frame after the one that drew the mask).
 */
function timerScript() {
  const w = window as unknown as Marks;
  document.addEventListener('pointerdown', () => (w.startedAt ??= performance.now()), true);
  new MutationObserver((records) => {
    const busyGone = records.some((r) =>
      [...r.removedNodes].some(
        (n) =>
          n instanceof Element &&
          (n.matches('[data-testid="selecting"]') || n.querySelector('[data-testid="selecting"]')),
      ),
    );
    if (busyGone) requestAnimationFrame(() => requestAnimationFrame(() => (w.shownAt ??= performance.now())));
  }).observe(document, { childList: true, subtree: true });
}

type Timed = { total: number; parts: ClickTimes['laterParts'][number] };

/** The time in the page's resource timing of the first request to `path` after the pointer went down. */
function requestTime(page: Page, path: string): Promise<{ start: number; end: number }> {
  return page.evaluate((path) => {
    const w = window as unknown as Marks;
    const [request] = performance
      .getEntriesByType('resource')
      .filter((e) => e.name.includes(path) && e.startTime >= (w.startedAt as number));
    if (!request) throw new Error(`no request to ${path} after the click`);
    return { start: request.startTime, end: (request as PerformanceResourceTiming).responseEnd };
  }, path);
}

async function onePhoto(
  page: Page,
  base: string,
  photo: Photo,
): Promise<{ first: { total: number; parts: ClickTimes['firstParts'][number] }; later: Timed[] }> {
  const buffer = await sharp(photo.image).resize(SIZE.width, SIZE.height, { fit: 'fill' }).png().toBuffer();
  await page.goto(`${base}/features/object-removal`);
  const canvas = page.getByTestId('mask-canvas');
  /** Where a photo pixel is on the screen now (pressing a button below the photo may scroll the page). */
  const at = async (p: { x: number; y: number }) => {
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    if (!box) throw new Error('no canvas box');
    return [
      box.x + (box.width * (p.x + 0.5)) / photo.width,
      box.y + (box.height * (p.y + 0.5)) / photo.height,
    ] as const;
  };
  const [a, b] = photo.points as [{ x: number; y: number }, { x: number; y: number }];
  /** The time from the pointer going down in `act` (or the start `act` marks) to the mask on screen. */
  const timed = (act: () => Promise<void>) => timedInPage(page, act, 600_000);
  /** `timed`, with the click's selection request read from the page's resource timing. */
  const timedParts = async (act: () => Promise<void>): Promise<Timed> => {
    const total = await timed(act);
    const request = await requestTime(page, '/api/select-object/prompt');
    const marks = await page.evaluate(() => {
      const { startedAt, shownAt } = window as unknown as Marks;
      return { startedAt, shownAt };
    });
    const parts = {
      before: request.start - (marks.startedAt as number),
      request: request.end - request.start,
      after: (marks.shownAt as number) - request.end,
    };
    return { total, parts };
  };
  // The first click's wait starts when the photo is chosen (the page prepares it from then on): the photo shown,
  // Select object chosen and the object clicked at once.
  const firstTotal = await timed(async () => {
    await page.evaluate(() => {
      (window as unknown as Marks).startedAt = performance.now();
    });
    await page
      .getByLabel('Photo', { exact: true })
      .setInputFiles({ name: `${photo.name}.png`, mimeType: 'image/png', buffer });
    await canvas.waitFor();
    const atA = await at(a);
    await page.getByRole('button', { name: 'Select object' }).click();
    await page.mouse.click(...atA);
  });
  const [prepare, select] = [
    await requestTime(page, '/api/select-object/prepare'),
    await requestTime(page, '/api/select-object/prompt'),
  ];
  const first = {
    total: firstTotal,
    parts: { prepare: prepare.end - prepare.start, request: select.end - select.start },
  };
  const atB = await at(b);
  const later = [await timedParts(() => page.mouse.click(...atB))];
  // Larger, when the ladder has a step above the object.
  const larger = page.getByRole('button', { name: 'Larger' });
  if (await larger.isEnabled()) later.push(await timedParts(() => larger.click()));
  const again = await at(a);
  later.push(
    await timedParts(async () => {
      await page.keyboard.down('Alt');
      await page.mouse.click(...again);
      await page.keyboard.up('Alt');
    }),
  );
  return { first, later };
}
