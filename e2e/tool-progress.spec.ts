import fs from 'node:fs';
import { expect, testOnOwnServer } from './fixtures';
import { allowUse, choosePhoto, expectResult, resizedPhoto, skipTutorials, watchUntil } from './tool-support';

/**
 * A server of its own: on the shared one, another test's shorter heavy job may rightly overtake this test's
 * waiting job under the fair policy (docs/runtime.md, "Scheduling") and raise its position, which this test says
 * never happens when nothing shorter arrives.
 */
const test = testOnOwnServer();

test('progress is real: the queue position falls as jobs ahead finish, then the percentage moves', async ({
  page,
  browser,
  ownServer,
}, info) => {
  test.setTimeout(400_000);
  await skipTutorials(page);
  await allowUse(page, 'denoising');
  // Denoising reports its progress as it goes; a 2400x1600 photo takes a few seconds per job, and the page sees
  // the percentage at several values. (A larger photo only makes the test slow: on a busy CI machine three 4000 px
  // jobs outlasted the test's time.)
  const photo = await resizedPhoto('chelsea.png', 2400, 1600, info.outputDir, 'jpeg');
  await page.goto('/features/denoising');
  // Another visitor's two jobs go first (the queue is shared; each user has two uses a day).
  const other = await (await browser.newContext({ baseURL: ownServer.url })).newPage();
  await allowUse(other, 'denoising');
  for (let i = 0; i < 2; i++) {
    const res = await other.request.post('/api/images', {
      multipart: {
        operation: 'denoising',
        file: { name: 'ahead.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(photo) },
      },
    });
    expect(res.status()).toBe(201);
  }
  await choosePhoto(page, photo);
  await page.getByRole('button', { name: 'Process Image' }).click();

  const stage = page.getByTestId('job-stage');
  const percent = page.getByTestId('job-percent');
  const card = page.getByTestId('result-card');
  const positions = await watchUntil(
    page,
    async () => {
      const m = /position (\d+)/.exec((await stage.textContent({ timeout: 500 }).catch(() => '')) ?? '');
      return m ? Number(m[1]) : undefined;
    },
    async () => (await percent.count()) > 0 || (await card.count()) > 0,
    300_000,
  );
  // The percentage is gone once the result shows: read it without waiting for it to come back.
  const percents = await watchUntil(
    page,
    async () => (await percent.textContent({ timeout: 500 }).catch(() => null)) ?? undefined,
    async () => (await card.count()) > 0,
    300_000,
  );
  await expectResult(page);
  // Each update the page saw of its place in the queue: it only ever falls.
  expect(positions.length, `positions ${positions}`).toBeGreaterThanOrEqual(2);
  for (let i = 1; i < positions.length; i++) expect(positions[i]).toBeLessThan(positions[i - 1] as number);
  expect(new Set(percents).size, `percents ${percents}`).toBeGreaterThanOrEqual(2);
  await other.context().close();
});
