import type { Me } from '@ai-editor/core';
import { emulatorUrl, serveGoogleStandIns } from './auth-support';
import { expect, test } from './fixtures';
import { choosePhoto, fixture, skipTutorials, toast } from './tool-support';

/**
 * Sign-in with Google through the real popup against the server's Firebase Auth emulator (offline: Google's gapi
 * loader is served by a stand-in), then the rules as a visitor meets them on the background-removal page.
 */
test('guest, Google sign-in through the emulator popup, two uses, daily limit, download, sign-out', async ({
  page,
  context,
}) => {
  test.setTimeout(420_000);
  await serveGoogleStandIns(context);
  await skipTutorials(page);
  await emulatorUrl(page);

  // A guest opening background removal is told it is restricted, and is stopped before uploading.
  await page.goto('/features/background-removal');
  await expect(page.getByTestId('usage-notice')).toContainText(
    'Feature Restricted – Please sign in with Google to access all features.',
  );
  await choosePhoto(page, fixture('chelsea.png'));
  const submissions: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/images') submissions.push(r.url());
  });
  await page.getByRole('button', { name: 'Process Image' }).click();
  await expect(toast(page, 'Feature Restricted', 'Please sign in with Google to access all features.')).toBeVisible();
  expect(submissions).toHaveLength(0);
  await expect(page.getByTestId('local-sign-in')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('1-guest-restricted.png') });

  // The real popup: the emulator's account chooser, a new auto-generated account.
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('sign-in').click()]);
  await popup.getByText('Add new account').click();
  await popup.getByText('Auto-generate user information').click();
  const name = await popup.locator('#display-name-input').inputValue();
  expect(name).not.toBe('');
  await popup.getByText(/Sign in with Google\.com/).click();
  await popup.waitForEvent('close', { timeout: 30_000 });

  // Signed in: avatar and name, and the menu says 'Account' and 'Free User'.
  await expect(page.getByTestId('account-name')).toHaveText(name);
  await page.getByTestId('account-menu').click();
  const menu = page.getByRole('menu');
  await expect(menu).toContainText('Account');
  await expect(menu.getByTestId('user-type')).toHaveText('Free User');
  await page.screenshot({ path: test.info().outputPath('2-account-menu.png') });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('uses-left')).toHaveText('2 of 2 uses left today');
  await expect(page.getByTestId('resets-at')).toContainText(/Resets (today|tomorrow) at/);

  // Two uses; the result of a signed-in user loads in the page.
  for (const left of [1, 0]) {
    await page.getByRole('button', { name: 'Process Image' }).click();
    await expect(page.getByTestId('uses-left')).toHaveText(`${left} of 2 uses left today`);
    const card = page.getByTestId('result-card');
    await expect(card).toBeVisible({ timeout: 180_000 });
    const result = card.getByRole('img', { name: 'Result' });
    await expect
      .poll(() => result.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 30_000 })
      .toBeGreaterThan(0);
  }
  expect(submissions).toHaveLength(2);
  await page.screenshot({ path: test.info().outputPath('3-no-uses-left.png'), fullPage: true });

  // No third: the button is disabled, with 'Daily Limit Reached' and when uses come back beside it.
  await expect(page.getByRole('button', { name: 'Process Image' })).toBeDisabled();
  await expect(page.getByTestId('limit-reason')).toContainText('Daily Limit Reached');
  expect(submissions).toHaveLength(2);

  // Download works for the signed-in owner.
  const card = page.getByTestId('result-card');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^background-removal-\d+\.png$/);

  // Sign out: a guest again, and the download is refused without asking the server.
  await page.getByTestId('account-menu').click();
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('sign-in')).toBeVisible();
  const downloads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/download/')) downloads.push(r.url());
  });
  await card.getByRole('button', { name: 'Download' }).click();
  await expect(
    toast(page, 'Download Restricted', 'Please sign in with Google to download processed images.'),
  ).toBeVisible();
  expect(downloads).toHaveLength(0);
  const me = (await (await page.request.get('/api/me')).json()) as Me;
  expect(me.type).toBe('guest');
});
