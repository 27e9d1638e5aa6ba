import fs from 'node:fs';
import { expect, test } from './fixtures';
import { allowUse, choosePhoto, dropFiles, fixture, skipTutorials, TEXT, toast } from './tool-support';

/** The upload rules (docs/product.md#upload-rules), checked in the browser with the server's messages before anything is sent. */
test.describe('upload checks on a tool page', () => {
  // The first sign-in of a run may wait for the Auth emulator to finish starting.
  test.describe.configure({ timeout: 240_000 });
  test.beforeEach(async ({ page }) => {
    await skipTutorials(page);
    await allowUse(page, 'background-removal');
    await page.goto('/features/background-removal');
  });

  test('shows the upload area texts', async ({ page }) => {
    await expect(page.getByText('Drag & drop an image here, or click to select')).toBeVisible();
    await expect(page.getByText('Max file size: 10MB | Supported formats: JPEG, PNG, WebP')).toBeVisible();
  });

  test('no photo: "Please select an image to upload", and no request', async ({ page }) => {
    let posted = false;
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/images') posted = true;
    });
    await page.getByRole('button', { name: 'Process Image' }).click();
    await expect(toast(page, 'Error', TEXT.fileRequired)).toBeVisible();
    expect(posted).toBe(false);
  });

  test('a text file: "Invalid file type..."', async ({ page }) => {
    await choosePhoto(page, { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') });
    await expect(page.getByTestId('upload-error')).toHaveText(TEXT.badType);
    await expect(toast(page, 'Error', TEXT.badType)).toBeVisible();
    await expect(page.getByTestId('chosen-file')).toHaveCount(0);
  });

  test('a GIF is refused too (only JPEG, PNG and WebP)', async ({ page }) => {
    const gif = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');
    await choosePhoto(page, { name: 'dot.gif', mimeType: 'image/gif', buffer: gif });
    await expect(page.getByTestId('upload-error')).toHaveText(TEXT.badType);
  });

  test('a photo over 10 MB: "File size too large..."', async ({ page }) => {
    // A real PNG padded past the limit: the browser judges by size before anything is sent.
    const png = fs.readFileSync(fixture('astronaut.png'));
    const big = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 + 1 - png.length)]);
    await choosePhoto(page, { name: 'big.png', mimeType: 'image/png', buffer: big });
    await expect(page.getByTestId('upload-error')).toHaveText(TEXT.tooLarge);
    await expect(toast(page, 'Error', TEXT.tooLarge)).toBeVisible();
  });

  test('two photos dropped at once on a tool that takes one (a mask tool): one at a time', async ({ page }) => {
    // Background removal takes several at once (a batch); a mask tool takes one photo to paint on.
    await page.goto('/features/object-removal');
    // The count is checked before anything else, so the bytes do not matter.
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    await dropFiles(page.getByTestId('upload-photo'), [
      { name: 'a.png', type: 'image/png', bytes: png },
      { name: 'b.png', type: 'image/png', bytes: png },
    ]);
    await expect(page.getByTestId('upload-error')).toHaveText(TEXT.tooMany);
  });

  test('a damaged photo is refused when it is chosen, in the server’s words: a cut-off JPEG, a broken PNG', async ({
    page,
  }) => {
    const unreadable = 'The image could not be read. It may be damaged or incomplete';
    let posted = false;
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/images') posted = true;
    });
    const jpg = fs.readFileSync(fixture('rocket.jpg'));
    const png = fs.readFileSync(fixture('astronaut.png'));
    for (const file of [
      { name: 'holiday.jpg', mimeType: 'image/jpeg', buffer: jpg.subarray(0, Math.floor(jpg.length * 0.9)) },
      { name: 'broken.png', mimeType: 'image/png', buffer: png.subarray(0, 4000) },
    ]) {
      await choosePhoto(page, file);
      await expect(page.getByTestId('upload-error')).toHaveText(unreadable);
      await expect(toast(page, 'Error', unreadable)).toBeVisible();
      await expect(page.getByTestId('chosen-file')).toHaveCount(0);
    }
    // Nothing was taken: Process asks for a photo, and nothing is sent.
    await page.getByRole('button', { name: 'Process Image' }).click();
    await expect(toast(page, 'Error', TEXT.fileRequired)).toBeVisible();
    expect(posted).toBe(false);
  });

  test('a good photo after a refused one clears the error and shows its preview and name', async ({ page }) => {
    await choosePhoto(page, { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await expect(page.getByTestId('upload-error')).toBeVisible();
    await choosePhoto(page, fixture('astronaut.png'));
    await expect(page.getByTestId('upload-error')).toHaveCount(0);
    await expect(page.getByRole('img', { name: 'Chosen photo' })).toBeVisible();
    await expect(page.getByTestId('chosen-file')).toContainText('astronaut.png');
  });
});

test('an operation this server cannot run says so before any upload', async ({ page }) => {
  // The e2e server has no provider token, so text-to-image has no engine.
  await skipTutorials(page);
  await page.goto('/features/text2img');
  const notice = page.getByTestId('tool-unavailable');
  await expect(notice.getByRole('heading', { name: 'Not available on this server' })).toBeVisible();
  // In the visitor's words: the operator's detail (which token to set) is on /status, not here.
  await expect(notice).toContainText('Text to Image is not enabled on this server');
  await expect(notice).not.toContainText('REPLICATE_API_TOKEN');
  await expect(page.getByRole('button', { name: 'Generate' })).toHaveCount(0);
});

test('controls come from the catalogue: denoising strength slider, 1-100, default 50, arrow keys', async ({ page }) => {
  await skipTutorials(page);
  await page.goto('/features/denoising');
  const slider = page.getByRole('slider', { name: 'Strength' });
  await expect(slider).toHaveAttribute('aria-valuemin', '1');
  await expect(slider).toHaveAttribute('aria-valuemax', '100');
  await expect(slider).toHaveAttribute('aria-valuenow', '50');
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveAttribute('aria-valuenow', '51');
  await expect(page.getByTestId('param-strength-value')).toHaveText('51');
});

test('the ad block shows its fallback text at 250 px or more, with tips and the why-choose list', async ({ page }) => {
  await skipTutorials(page);
  await page.goto('/features/background-removal');
  const ad = page.getByTestId('ad-block');
  await expect(ad).toContainText('Advertisement');
  expect((await ad.boundingBox())?.height).toBeGreaterThanOrEqual(250);
  await expect(page.getByRole('heading', { name: 'Why choose Background Removal?' })).toBeVisible();
  await expect(
    page.getByText('Most tools finish in a few seconds; enlarging or restoring a large photo can take a few minutes.'),
  ).toBeVisible();
});
