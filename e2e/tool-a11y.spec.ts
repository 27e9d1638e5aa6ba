import { expect, test } from './fixtures';
import { allowUse, choosePhoto, fixture, seriousViolations } from './tool-support';

for (const appearance of ['light', 'dark'] as const) {
  test.describe(`${appearance} theme`, () => {
    test.beforeEach(async ({ page }) => {
      if (appearance === 'dark') {
        await page.addInitScript(() =>
          localStorage.setItem(
            'ai-editor-theme',
            JSON.stringify({ primary: '#4f46e5', variant: 'professional', appearance: 'dark', radius: 0.5 }),
          ),
        );
      }
    });

    test('a tool page with its tutorial, a chosen photo and the controls has no serious axe violation', async ({
      page,
    }) => {
      test.setTimeout(240_000);
      await allowUse(page, 'denoising');
      await page.goto('/features/denoising');
      await choosePhoto(page, fixture('coffee.png'));
      await expect(page.getByTestId('tutorial-card')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('the mask editor has no serious axe violation', async ({ page }) => {
      test.setTimeout(240_000);
      await allowUse(page, 'object-removal');
      await page.goto('/features/object-removal');
      await choosePhoto(page, fixture('coffee.png'));
      await expect(page.getByTestId('mask-canvas')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('the result page without an id has no serious axe violation', async ({ page }) => {
      await page.goto('/result');
      await expect(page.getByTestId('result-empty')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
