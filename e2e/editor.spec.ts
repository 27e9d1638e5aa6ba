import path from 'node:path';
import { OPERATIONS } from '@ai-editor/core';
import { expect, test } from '@playwright/test';
import { ROOT } from './server';

test('a black-and-white photo is analysed, and the chosen tool receives it', async ({ page }) => {
  await page.goto('/editor');
  await page.getByLabel('Choose a photo').setInputFiles(path.join(ROOT, 'fixtures/camera.png'));
  await expect(page.getByRole('heading', { name: 'Recommended for this photo' })).toBeVisible();
  // camera.png is a grayscale photo, but this server has no engine for colorization (no provider token), so it is
  // never recommended; the tools that work here are.
  await expect(page.getByTestId('recommendation').first()).toBeVisible();
  await expect(page.getByTestId('recommendation').filter({ hasText: 'Colorization' })).toHaveCount(0);
  for (const op of OPERATIONS.filter((o) => o.input !== 'prompt')) {
    await expect(page.getByRole('button', { name: new RegExp(`^${op.name}`) }).last()).toBeVisible();
  }
  await page
    .getByRole('button', { name: /^Background Removal/ })
    .last()
    .click();
  await expect(page).toHaveURL(/\/features\/background-removal$/);
  // The tool page starts with the carried photo chosen.
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
