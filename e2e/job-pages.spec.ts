import fs from 'node:fs';
import path from 'node:path';
import type { ImageJob } from '@ai-editor/core';
import { signIn } from './auth-support';
import { expect, freePortPair, type Page, test } from './fixtures';
import { type RunningServer, startServer } from './server';
import { fixture, resizedPhoto, skipTutorials, toast } from './tool-support';

/**
 * A job's pages never lie: a job that is gone (deleted, never there, someone else's, its files expired) or cancelled
 * is said so in words, with a way on, on the result page, the tool page (`?job=`) and in the editor (`?steps=`);
 * nothing waits forever and no picture is broken.
 */

const GONE = 'This image is no longer available';

/** Submits a job from the page's own cookie jar, as the tool page would. */
async function submit(page: Page, operation: string, photo = fixture('coffee.png'), base = ''): Promise<number> {
  const res = await page.request.post(`${base}/api/images?operation=${operation}`, {
    multipart: {
      operation,
      file: { name: path.basename(photo), mimeType: 'image/png', buffer: fs.readFileSync(photo) },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as ImageJob).id;
}

async function waitDone(page: Page, id: number, base = ''): Promise<ImageJob> {
  for (let i = 0; i < 1200; i++) {
    const job = (await (await page.request.get(`${base}/api/images/${id}`)).json()) as ImageJob;
    if (job.status !== 'pending') return job;
    await page.waitForTimeout(250);
  }
  throw new Error(`job ${id} still pending`);
}

/** Every picture on the page has loaded (none is broken). */
async function noBrokenImages(page: Page) {
  const broken = await page
    .locator('img')
    .evaluateAll((imgs) =>
      (imgs as HTMLImageElement[]).filter((i) => i.complete && i.naturalWidth === 0).map((i) => i.src),
    );
  expect(broken).toEqual([]);
}

/** The gone message of a state, on the page, with one way home and nothing still loading. */
async function expectGone(page: Page, state: string, text: string | RegExp) {
  const gone = page.getByTestId('job-gone');
  await expect(gone).toBeVisible();
  await expect(gone).toHaveAttribute('data-state', state);
  await expect(gone).toContainText(text);
  await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveCount(1);
  await expect(page.getByText('Loading...')).toHaveCount(0);
  await expect(toast(page, 'Error', 'Failed to load image. Please try again.')).toHaveCount(0);
  await noBrokenImages(page);
}

test.beforeEach(async ({ page }) => {
  await skipTutorials(page);
});

test('an unknown, a deleted and another visitor’s job: the result page and the editor say it is not available', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(300_000);
  const notAvailable = new RegExp(
    `${GONE}: it was deleted, or the link is not to one of your images. Results are deleted 24 hours after they are made`,
  );

  await page.goto('/result?id=987654');
  await expectGone(page, 'not-available', notAvailable);
  await page.screenshot({ path: info.outputPath('result-unknown-1280.png') });
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);

  // Deleted from My images: the result page, the tool page's link and the editor's steps say so.
  await signIn(page);
  const deleted = await submit(page, 'pencil-sketch');
  expect((await page.request.delete(`/api/images/${deleted}`)).status()).toBe(204);
  await page.goto(`/result?id=${deleted}`);
  await expectGone(page, 'not-available', notAvailable);
  await page.goto(`/editor?steps=${deleted}`);
  await expect(page.getByTestId('editor-step-item').nth(1)).toContainText('No longer available');
  await expectGone(page, 'not-available', notAvailable);
  await expect(page.getByTestId('job-gone').getByRole('button', { name: 'Start over with a new photo' })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: info.outputPath('editor-gone-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  // Someone else's job is not shown, and not said to exist.
  const other = await (await browser.newContext()).newPage();
  await signIn(other);
  const theirs = await submit(other, 'pencil-sketch');
  await page.goto(`/result?id=${theirs}`);
  await expectGone(page, 'not-available', notAvailable);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: info.outputPath('result-foreign-390.png'), fullPage: true });
  await other.context().close();
});

test('a cancelled job reads as cancelled, not as a failure, with a way back to its tool', async ({ page }, info) => {
  test.setTimeout(180_000);
  await signIn(page);
  const photo = await resizedPhoto('chelsea.png', 3000, 2000, info.outputDir);
  const id = await submit(page, 'denoising', photo);
  const cancelled = await page.request.post(`/api/images/${id}/cancel`);
  expect(cancelled.status()).toBe(200);
  await page.goto(`/result?id=${id}`);
  await expectGone(page, 'cancelled', 'This job was cancelled before it finished');
  await expect(page.getByRole('heading', { name: 'Cancelled' })).toBeVisible();
  await expect(page.getByText('Processing failed')).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('result-cancelled-1280.png') });
  await page.getByRole('link', { name: 'Try again in Denoising' }).click();
  await expect(page).toHaveURL(new RegExp(`/features/denoising\\?job=${id}$`));
});

test.describe('a server whose retention sweep removed a job’s files', () => {
  let server: RunningServer;
  let port: number;
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    port = await freePortPair();
    server = await startServer({ port, env: { RETENTION_HOURS: '2', AUTH_EMULATOR_START: 'false' } });
  });
  test.afterAll(async () => {
    await server?.stop();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  test('the result page says the results are deleted after the server’s retention', async ({ page }, info) => {
    test.setTimeout(300_000);
    await page.goto(server.url);
    // A guest's face enhancement (the tool guests may use), finished, then three hours older than it is.
    const id = await submit(page, 'face-enhancement', fixture('astronaut.png'), server.url);
    expect((await waitDone(page, id, server.url)).status).toBe('completed');
    await server.stop();
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(path.join(server.dataDir, 'db'));
    await db.query(`update images set created_at = now() - interval '3 hours' where id = $1`, [id]);
    await db.close();
    // The sweep runs at start: the files go, the row stays marked.
    server = await startServer({
      port,
      dataDir: server.dataDir,
      env: { RETENTION_HOURS: '2', AUTH_EMULATOR_START: 'false' },
    });
    const job = (await (await page.request.get(`${server.url}/api/images/${id}`)).json()) as ImageJob;
    expect([job.status, job.metadata.expired, job.processedUrl]).toEqual(['completed', true, null]);

    await page.goto(`${server.url}/result?id=${id}`);
    await expectGone(page, 'expired', `${GONE}: results are deleted 2 hours after they are made`);
    await expect(page.getByRole('link', { name: 'Open Face Enhancement' })).toBeVisible();
    await page.screenshot({ path: info.outputPath('result-expired-1280.png') });
    await page.goto(`${server.url}/editor?steps=${id}`);
    await expectGone(page, 'expired', `${GONE}: results are deleted 2 hours after they are made`);
  });
});
