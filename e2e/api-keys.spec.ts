import { createApiClient } from '@ai-editor/client';
import { signIn } from './auth-support';
import { expect, test } from './fixtures';
import { skipTutorials } from './tool-support';

// The first sign-in waits for the Auth emulator, on a small shared machine.
test.describe.configure({ timeout: 400_000 });

const api = (key?: string) => createApiClient({ baseUrl: `http://127.0.0.1:${process.env.E2E_PORT}`, key });

test('creates an API key on the API keys page, copies it, and revokes it', async ({ page, context }, info) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const user = await signIn(page);
  await page.goto('/');
  await page.getByTestId('account-menu').click();
  await page.getByRole('menuitem', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expect(page.getByText('No keys yet.')).toBeVisible();

  await page.getByLabel('Name').fill('Nightly batch');
  await page.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByTestId('new-key-value');
  await expect(shown).toHaveValue(/^aie_/);
  const key = await shown.inputValue();
  await expect(page.getByTestId('new-key-secret')).toHaveValue(/^whsec_/);
  await page.getByRole('button', { name: 'Copy API key' }).click();
  await expect(page.getByText('API key copied to the clipboard.', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await page.screenshot({ path: info.outputPath('api-keys.png'), fullPage: true });

  // The copied key works from a program (the typed client), as this user.
  const me = await api(key).GET('/api/me');
  expect(me.response.status).toBe(200);
  expect(me.data?.user?.uid).toBe(user.uid);

  // Listed by name and prefix, never the whole key; once used, it says so.
  await page.reload();
  const item = page.getByTestId('key-item');
  await expect(item).toHaveCount(1);
  await expect(item.getByText('Nightly batch')).toBeVisible();
  await expect(item.getByText(`${key.slice(0, 12)}…`)).toBeVisible();
  await expect(item.getByText(/last used/)).toBeVisible();
  await expect(page.getByText(key)).toHaveCount(0);

  // Revoke asks first; then the key is refused at once.
  await item.getByRole('button', { name: 'Revoke Nightly batch' }).click();
  await expect(page.getByText('Revoke Nightly batch? Programs using it stop working at once.')).toBeVisible();
  await page.getByRole('button', { name: 'Yes, revoke' }).click();
  await expect(page.getByText('No keys yet.')).toBeVisible();
  const refused = await api(key).GET('/api/me');
  expect(refused.response.status).toBe(401);
  expect(refused.error).toMatchObject({ code: 'INVALID_API_KEY' });
});

test('a tool page offers the output format and, for background removal, a colour with its preview', async ({
  page,
}) => {
  await skipTutorials(page);
  await signIn(page);
  await page.goto('/features/background-removal');
  const output = page.getByTestId('output-options');
  await output.getByText('Output: PNG').click();
  await expect(page.getByRole('slider', { name: 'Quality' })).toHaveCount(0);
  await page.getByLabel('Format').selectOption('jpeg');
  await expect(output.getByText('Output: JPEG')).toBeVisible();
  await expect(page.getByRole('slider', { name: 'Quality' })).toBeVisible();

  await page.getByLabel('Background', { exact: true }).selectOption('color');
  const swatch = page.getByTestId('param-background-swatch');
  await expect(swatch).toBeVisible();
  await page.getByLabel('Background colour').fill('#1e90ff');
  await expect(page.getByRole('img', { name: 'Preview: #1e90ff' })).toBeVisible();
  await expect(swatch).toHaveCSS('background-color', 'rgb(30, 144, 255)');
});

test('the API docs show submit, wait and download with curl, the typed client and Python, for this server', async ({
  page,
  baseURL,
}) => {
  await page.goto('/api-docs');
  const section = page.getByRole('region', { name: 'Submit, wait, download' });
  await expect(section.getByText('RateLimit-Remaining', { exact: true })).toBeVisible();
  for (const title of [
    'curl',
    'TypeScript (the typed client, @ai-editor/client: openapi-fetch)',
    'Python (requests)',
  ]) {
    await expect(section.getByRole('heading', { level: 3, name: title })).toBeVisible();
  }
  const examples = await section.getByTestId('api-example').allInnerTexts();
  const [curl, client, python] = examples;
  expect(curl).toContain(`  ${baseURL}/api/images | tee job.json`);
  expect(curl).toContain(`-o cutout.jpg ${baseURL}/api/images/$ID/download/0`);
  expect(client).toContain(`createApiClient({ baseUrl: '${baseURL}', key: process.env.AIE_KEY })`);
  expect(python).toContain(`base, headers = '${baseURL}'`);
  // Each runs on a machine without internet: no address but this server's and a receiver on localhost.
  for (const example of examples) expect(example).not.toMatch(/example\.(com|org)/);
});
