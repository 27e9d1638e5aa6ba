import { expect, test } from './fixtures';

/** The tutorial card (docs/product.md#pages, #flows): steps from the catalogue, remembered per feature in browser storage. */
test('finishing the tutorial hides it for that feature after a reload, not for another', async ({ page }) => {
  await page.goto('/features/background-removal');
  const card = page.getByTestId('tutorial-card');
  await expect(card).toBeVisible();
  await expect(card).toContainText('Step 1 of 3');
  await expect(card.getByRole('heading', { name: 'Upload' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await expect(card.getByRole('button', { name: 'Finish' })).toHaveCount(0);

  await card.getByRole('button', { name: 'Next' }).click();
  await expect(card).toContainText('Step 2 of 3');
  await expect(card.getByRole('button', { name: 'Previous' })).toBeEnabled();
  await card.getByRole('button', { name: 'Previous' }).click();
  await expect(card).toContainText('Step 1 of 3');
  await card.getByRole('button', { name: 'Next' }).click();
  await card.getByRole('button', { name: 'Next' }).click();
  await expect(card).toContainText('Step 3 of 3');
  await expect(card.getByRole('button', { name: 'Next' })).toHaveCount(0);
  await card.getByRole('button', { name: 'Finish' }).click();
  await expect(card).toBeHidden();

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Background Removal', level: 1 })).toBeVisible();
  await expect(page.getByTestId('tutorial-card')).toHaveCount(0);

  await page.goto('/features/denoising');
  await expect(page.getByTestId('tutorial-card')).toBeVisible();
  await expect(page.getByTestId('tutorial-card')).toContainText('Step 1 of 3');
});

test('closing the tutorial also hides it for good, and it sits at the bottom right', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/features/segmentation');
  const card = page.getByTestId('tutorial-card');
  const box = await card.boundingBox();
  expect(box && box.x + box.width).toBeGreaterThan(1200);
  expect(box && box.y + box.height).toBeGreaterThan(740);
  await card.getByRole('button', { name: 'Close tutorial' }).click();
  await expect(card).toBeHidden();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Segmentation', level: 1 })).toBeVisible();
  await expect(page.getByTestId('tutorial-card')).toHaveCount(0);
});
