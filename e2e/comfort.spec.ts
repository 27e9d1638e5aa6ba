import fs from 'node:fs';
import path from 'node:path';
import type { Health, ImageJob } from '@ai-editor/core';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { signIn } from './auth-support';
import { expect, type Page, type Request, testOnOwnServer } from './fixtures';
import { dropFiles, fixture, resizedPhoto, seriousViolations, skipTutorials, toast } from './tool-support';

/**
 * Input comfort, looking at results, no dead ends and batches, against a server of its own: three uses of each
 * tool per day (so that a batch of three fits, and a fourth photo is refused), no provider token (so the provider
 * tools are unavailable) and super resolution switched off.
 */
const USES = 3;
const test = testOnOwnServer({
  DAILY_USES_PER_OPERATION: String(USES),
  ENGINE_SUPER_RESOLUTION: 'off',
  REPLICATE_API_TOKEN: '',
});

const OUT = path.join(import.meta.dirname, '../test-output/comfort');
const shot = (name: string) => path.join(OUT, `${name}.png`);

/** A finished pencil-sketch job made through the API with the page's own session (so the page may see it). */
async function sketchJob(page: Page, photo: string): Promise<number> {
  const res = await page.request.post('/api/images', {
    multipart: {
      operation: 'pencil-sketch',
      file: { name: path.basename(photo), mimeType: 'image/png', buffer: fs.readFileSync(photo) },
    },
  });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as ImageJob;
  await expect
    .poll(async () => ((await (await page.request.get(`/api/images/${id}`)).json()) as ImageJob).status, {
      timeout: 120_000,
      intervals: [500],
    })
    .toBe('completed');
  return id;
}

const pngBytes = (file: string) => fs.readFileSync(file);

/** The batch that offers fewer photos than chosen, at the desktop and phone widths. */
async function shotBatchLimit(page: Page) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: shot(`batch-limit-${width}`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const DAILY_LIMIT = "You've reached your daily limit for this feature. Please try again tomorrow.";

/** A new signed-in user chooses these photos on the pencil sketch page (a fast, classical engine). */
async function openBatch(page: Page, photos: string[]) {
  await skipTutorials(page);
  await signIn(page);
  await page.goto('/features/pencil-sketch');
  await page.getByLabel('Photo', { exact: true }).setInputFiles(photos);
  return page.getByTestId('batch-panel');
}

test('a photo pasted from the clipboard becomes the photo', async ({ page }) => {
  await skipTutorials(page);
  await page.goto('/features/face-enhancement');
  await expect(page.getByTestId('tool-workspace')).toBeVisible();
  const bytes = [...pngBytes(fixture('astronaut.png'))];
  // What Ctrl/Cmd+V delivers for a copied screenshot: a paste event whose clipboard holds an image file.
  await page.evaluate((data) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(data)], 'image.png', { type: 'image/png' }));
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, bytes);
  await expect(page.getByTestId('chosen-file')).toContainText('pasted-image.png');
  await expect(page.getByRole('img', { name: 'Chosen photo' })).toBeVisible();
});

test('a photo dropped anywhere on a tool page becomes the photo, with a page-wide overlay while dragging', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await skipTutorials(page);
  await page.goto('/features/face-enhancement');
  const heading = page.getByRole('heading', { level: 1 });
  await heading.dispatchEvent('dragenter', {
    dataTransfer: await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['x'], 'x.png', { type: 'image/png' }));
      return dt;
    }),
  });
  await expect(page.getByTestId('page-drop-overlay')).toBeVisible();
  await dropFiles(heading, [{ name: 'dropped.png', type: 'image/png', bytes: pngBytes(fixture('coffee.png')) }]);
  await expect(page.getByTestId('page-drop-overlay')).toHaveCount(0);
  await expect(page.getByTestId('chosen-file')).toContainText('dropped.png');
  await expect(page.getByRole('img', { name: 'Chosen photo' })).toBeVisible();
  // Two photos on a tool that takes one at a time: a mask is painted on one photo.
  await page.goto('/features/object-removal');
  await dropFiles(page.getByRole('heading', { level: 1 }), [
    { name: 'a.png', type: 'image/png', bytes: pngBytes(fixture('coffee.png')) },
    { name: 'b.png', type: 'image/png', bytes: pngBytes(fixture('coffee.png')) },
  ]);
  await expect(toast(page, 'Error', 'Please upload one image at a time')).toBeVisible();
});

test('a photo dropped anywhere on /editor is taken, and an unavailable tool is never recommended', async ({
  page,
}, info) => {
  // A black-and-white photo would suggest colorization, which this server cannot run.
  const grey = info.outputPath('grey.png');
  await sharp(fixture('coffee.png')).greyscale().toFile(grey);
  await page.goto('/editor');
  await dropFiles(page.getByRole('heading', { level: 1 }), [
    { name: 'grey.png', type: 'image/png', bytes: pngBytes(grey) },
  ]);
  await expect(page.getByRole('img', { name: 'Your photo' })).toBeVisible();
  // The editor lists only the tools this server runs: the unavailable ones are left out, so never suggested.
  await expect(page.getByTestId('editor-tool-background-removal')).toBeVisible();
  await expect(page.getByTestId('editor-tool-colorization')).toHaveCount(0);
  await expect(page.getByTestId('editor-tool-super-resolution')).toHaveCount(0);
  await page.screenshot({ path: shot('editor-unavailable-marked'), fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
});

test('an unavailable tool is never offered as available: landing, /ai-apps, its page, /status', async ({ page }) => {
  // Six pages, three axe scans and three full-page screenshots: 36-72 s on the loaded 2-core machine.
  test.setTimeout(180_000);
  const health = (await (await page.request.get('/api/health')).json()) as Health;
  const off = health.engines.filter((e) => !e.available).map((e) => e.operation);
  expect(off).toEqual(expect.arrayContaining(['text2img', 'colorization', 'super-resolution']));

  await page.goto('/');
  const grid = page.getByTestId('feature-grid');
  await expect(grid.locator('[data-testid="feature-card"][data-offered="true"]').first()).toBeVisible();
  for (const id of off) {
    const card = grid.locator(`a[href="/features/${id === 'hdr-enhancement' ? 'hdr' : id}"]`);
    if ((await card.count()) === 0) continue;
    await expect(card).toHaveAttribute('data-offered', 'false');
    await expect(card).toContainText('Not available on this server');
  }
  // The count the landing page gives is the tools that work here, and the About page gives the same.
  const offered = await grid.locator('[data-offered="true"]').count();
  await expect(page.getByText(`Pick one of our ${offered} AI features.`)).toBeVisible();
  await page.goto('/about');
  await expect(page.getByRole('list', { name: 'AI Editor in numbers' })).toContainText(`${offered}AI features`);

  await page.goto('/ai-apps');
  const available = page.locator('section[aria-labelledby="available-heading"]');
  await expect(available.getByRole('link', { name: 'Open Face Enhancement' })).toBeVisible();
  await expect(available).not.toContainText('Text to Image');
  await expect(available).not.toContainText('Super Resolution');
  await expect(page.getByTestId('apps-unavailable')).toContainText('Text to Image');
  await expect(page.getByTestId('apps-unavailable')).toContainText('Super Resolution');
  await page.screenshot({ path: shot('ai-apps'), fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('/features/colorization');
  const notice = page.getByTestId('tool-unavailable');
  await expect(notice).toContainText('Colorization is not enabled on this server');
  await expect(notice).not.toContainText('REPLICATE');
  await expect(page.getByRole('button', { name: 'Process Image' })).toHaveCount(0);
  await expect(notice.getByRole('link', { name: 'Background Removal' })).toBeVisible();
  await page.screenshot({ path: shot('tool-unavailable') });

  await page.goto('/status');
  const banner = page.getByRole('status').filter({ hasText: 'operational' });
  await expect(banner).toContainText('Some AI tools are not available on this server');
  await expect(banner).toContainText('Text to Image');
  await expect(banner).not.toContainText('All systems are operational');
  await page.screenshot({ path: shot('status') });
  await page.goto('/');
  await page.getByTestId('feature-grid').scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('landing-grid') });
  expect(await seriousViolations(page)).toEqual([]);
});

test('a batch of three: one progress grid, three downloads and a zip of three PNGs; then the day is used up', async ({
  page,
}, info) => {
  test.setTimeout(300_000);
  const photos = await Promise.all(
    [
      ['astronaut.png', 320, 320],
      ['coffee.png', 300, 200],
      ['chelsea.png', 280, 210],
    ].map(([name, w, h]) => resizedPhoto(name as string, w as number, h as number, info.outputPath('photos'))),
  );
  const panel = await openBatch(page, photos);
  await expect(panel.getByRole('heading', { name: 'Your photos (3)' })).toBeVisible();
  await expect(panel.getByTestId('batch-item')).toHaveCount(3);
  // One submission per photo, each with its own Idempotency-Key.
  const keys: (string | undefined)[] = [];
  const onPost = (r: Request) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/images') keys.push(r.headers()['idempotency-key']);
  };
  page.on('request', onPost);
  await panel.getByRole('button', { name: 'Process 3 images' }).click();
  await expect(panel.getByTestId('batch-summary')).toHaveText('3 of 3 done.', { timeout: 200_000 });
  page.off('request', onPost);
  expect(keys).toHaveLength(3);
  for (const key of keys) expect(key).toMatch(/^[0-9a-f-]{36}$/);
  expect(new Set(keys).size).toBe(3);
  await expect(panel.locator('[data-testid="batch-item"][data-state="done"]')).toHaveCount(3);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // The panel's top just under the sticky header.
    await panel.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 72));
    await page.screenshot({ path: shot(`batch-grid-${width}`) });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  const names: string[] = [];
  for (const [i, photo] of photos.entries()) {
    const stem = path.parse(photo).name;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: `Download ${stem}-pencil-sketch.png` }).click(),
    ]);
    names.push(download.suggestedFilename());
    const bytes = fs.readFileSync(await download.path());
    expect((await sharp(bytes).metadata()).format, `download ${i + 1}`).toBe('png');
  }
  expect(names).toEqual(photos.map((p) => `${path.parse(p).name}-pencil-sketch.png`));

  const [zip] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Download all (3) as ZIP' }).click(),
  ]);
  expect(zip.suggestedFilename()).toBe('pencil-sketch-results.zip');
  const entries = unzipSync(new Uint8Array(fs.readFileSync(await zip.path())));
  expect(Object.keys(entries).sort()).toEqual([...names].sort());
  for (const data of Object.values(entries)) {
    expect([...data.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect((await sharp(Buffer.from(data)).metadata()).format).toBe('png');
  }
  expect(await seriousViolations(page)).toEqual([]);

  // All three uses of today are spent: a new batch is refused in the page, with the spec's toast, sending nothing.
  let posted = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/images')) posted++;
  });
  await panel.getByRole('button', { name: 'Start over' }).click();
  await page.getByLabel('Photo', { exact: true }).setInputFiles(photos.slice(0, 2));
  // Nothing is offered: the button is disabled and the page says why, before any click.
  await expect(page.getByRole('button', { name: 'Process 0 images' })).toBeDisabled();
  await expect(panel.getByTestId('batch-limit')).toHaveText(
    'No uses of this tool are left today, so none of these photos can be processed.',
  );
  expect(posted).toBe(0);
});

test('a batch larger than what is left today offers only the photos that fit, says so, and refuses the others', async ({
  page,
}, info) => {
  test.setTimeout(300_000);
  const photos = await Promise.all(
    [20, 21, 22, 23].map((w) => resizedPhoto('coffee.png', w * 10, 200, info.outputPath('photos'))),
  );
  const panel = await openBatch(page, photos);
  await expect(panel.getByTestId('batch-limit')).toHaveText(
    `${USES} uses of this tool left today: the first ${USES} photos will be processed, the other not sent.`,
  );
  await shotBatchLimit(page);
  await panel.getByRole('button', { name: `Process ${USES} images` }).click();
  await expect(toast(page, 'Daily Limit Reached', DAILY_LIMIT)).toBeVisible();
  await expect(panel.getByTestId('batch-summary')).toHaveText(`${USES} of 4 done.`, { timeout: 200_000 });
  await expect(panel.getByTestId('batch-item').nth(3)).toContainText(DAILY_LIMIT);
});

test('the result page: compare slider moved with the keyboard, focus ring, no upscaling, zoomable full view', async ({
  page,
}, info) => {
  test.setTimeout(240_000);
  await skipTutorials(page);
  await signIn(page);
  // A small photo: its result must not be stretched to the card's width.
  const small = await resizedPhoto('coffee.png', 240, 160, info.outputPath('photos'));
  const id = await sketchJob(page, small);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/result?id=${id}`);

  const slider = page.getByRole('slider', { name: 'Compare before and after' });
  await expect(slider).toHaveAttribute('aria-valuenow', '50');
  await page.keyboard.press('Tab');
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveAttribute('aria-valuenow', '60');
  await expect(slider).toHaveAttribute('aria-valuetext', '60% before, 40% after');
  await page.keyboard.press('ArrowLeft');
  await expect(slider).toHaveAttribute('aria-valuenow', '55');
  const ring = await page
    .locator('[data-rcs="handle-root"] .__rcs-handle-button')
    .evaluate((el) => getComputedStyle(el).boxShadow);
  expect(ring).toContain('rgb(255, 255, 255) 0px 0px 0px 3px');
  const box = await page.getByTestId('compare-slider').boundingBox();
  expect(box?.width).toBeLessThanOrEqual(241);
  expect(await seriousViolations(page)).toEqual([]);

  // The full-size view, zoomed with the keyboard.
  await page.getByRole('button', { name: 'View full size' }).click();
  const viewer = page.getByTestId('image-viewer');
  await expect(viewer).toBeVisible();
  const zoom = viewer.getByTestId('viewer-zoom');
  // Fitted, a small result is shown at its own size: 100%, never enlarged on opening.
  await expect(zoom).toHaveText('100%');
  await expect(viewer.getByRole('region', { name: 'Zoomable image' })).toBeFocused();
  const percent = async () => Number.parseInt((await zoom.textContent()) ?? '', 10);
  /** Presses a key and waits for the zoom it brings to settle (each press animates briefly). */
  const press = async (key: string, expectZoom: (now: number, was: number) => boolean) => {
    const was = await percent();
    await page.keyboard.press(key);
    await expect
      .poll(async () => {
        const now = await percent();
        await page.waitForTimeout(200);
        return now === (await percent()) && expectZoom(now, was);
      })
      .toBe(true);
  };
  await press('+', (now, was) => now > was);
  await press('+', (now, was) => now > was);
  const zoomed = await percent();
  expect(zoomed).toBeGreaterThan(150);
  const content = viewer.locator('.react-transform-component');
  const before = await content.evaluate((el) => el.style.transform);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => content.evaluate((el) => el.style.transform)).not.toBe(before);
  await press('-', (now, was) => now < was);
  await press('0', (now) => now === 100);
  for (let i = 0; i < 3; i++) await press('+', (now, was) => now > was);
  expect(await percent()).toBeGreaterThan(zoomed);
  expect(await seriousViolations(page)).toEqual([]);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: shot(`viewer-zoomed-${width}`) });
  }
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
});

test('a large pasted photo is checked before Process Image can be clicked', async ({ page }, info) => {
  await skipTutorials(page);
  // 40 megapixels: decoding it in the page takes long enough to be seen.
  const big = info.outputPath('big-pasted.png');
  await sharp({ create: { width: 6300, height: 6300, channels: 3, background: '#808080' } })
    .png()
    .toFile(big);
  await page.goto('/features/face-enhancement');
  await expect(page.getByTestId('tool-workspace')).toBeVisible();
  // Watched inside the page at every change: a fast machine checks the photo before two separate assertions could
  // both run, so "visible, then disabled" from outside would race with the check ending.
  await page.evaluate(() => {
    const seen = { checking: false, enabledWhileChecking: false };
    (window as unknown as { seen: typeof seen }).seen = seen;
    const look = () => {
      if (!document.body.innerText.includes('Checking photo...')) return;
      seen.checking = true;
      const process = document.querySelector<HTMLButtonElement>('[data-testid="submit"]');
      if (process && !process.disabled) seen.enabledWhileChecking = true;
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await page.evaluate(
    (data) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], 'image.png', { type: 'image/png' }));
      document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    },
    [...fs.readFileSync(big)],
  );
  const process = page.getByRole('button', { name: 'Process Image' });
  await expect(page.getByTestId('chosen-file')).toContainText('pasted-image.png');
  await expect(page.getByText('Checking photo...')).toHaveCount(0);
  await expect(process).toBeEnabled();
  expect(await page.evaluate(() => (window as unknown as { seen: object }).seen)).toEqual({
    checking: true,
    enabledWhileChecking: false,
  });
});

test('the output-size limit is checked in the page before anything is sent, with the server rule', async ({
  page,
}, info) => {
  await skipTutorials(page);
  // Under the 40 MP input limit, but 2x face enhancement would make 12600x12600 (158 MP).
  const big = info.outputPath('big.png');
  await sharp({ create: { width: 6300, height: 6300, channels: 3, background: '#808080' } })
    .png()
    .toFile(big);
  let posted = false;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/images')) posted = true;
  });
  await page.goto('/features/face-enhancement');
  await page.getByLabel('Photo', { exact: true }).setInputFiles(big);
  await page.getByLabel('Output size').selectOption('2');
  await page.getByRole('button', { name: 'Process Image' }).click();
  await expect(
    toast(page, 'Error', /The result would be 12600x12600 pixels, larger than the 40 megapixels this server can make/),
  ).toBeVisible();
  expect(posted).toBe(false);
});
