import path from 'node:path';
import { expect, test } from './fixtures';
import { ROOT } from './server';

test('a chosen photo opens the steps, offering only the photo tools this server runs', async ({ page }) => {
  await page.goto('/editor');
  await page.getByLabel('Choose a photo').setInputFiles(path.join(ROOT, 'fixtures/camera.png'));
  await expect(page.getByRole('heading', { name: 'Step 1: choose a tool' })).toBeVisible();
  await expect(page.getByTestId('editor-step-item')).toHaveCount(1);
  await expect(page.getByRole('img', { name: 'Your photo' })).toBeVisible();
  // Super-resolution is switched off on the test server: never offered. Colorization needs a provider token.
  await expect(page.getByTestId('editor-tool-background-removal')).toBeVisible();
  await expect(page.getByTestId('editor-tool-super-resolution')).toHaveCount(0);
  await expect(page.getByTestId('editor-tool-colorization')).toHaveCount(0);
  // A tool opens inside the editor with the photo already chosen.
  await page.getByTestId('editor-tool-background-removal').click();
  await expect(page.getByRole('heading', { name: 'Step 1: Background Removal' })).toBeVisible();
  await expect(page.getByRole('main').getByText('camera.png')).toBeVisible();
});

test('a file of the wrong type is refused with the catalogue message', async ({ page }) => {
  await page.goto('/editor');
  await page
    .getByLabel('Choose a photo')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  const toasts = page.getByRole('region', { name: /Notifications/ });
  await expect(toasts.getByText('Invalid file type. Please upload a JPEG, PNG, or WebP image')).toBeVisible();
});
