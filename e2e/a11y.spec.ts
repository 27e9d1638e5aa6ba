import { axeViolations } from './a11y-guard';
import { signIn } from './auth-support';
import { expect, test } from './fixtures';

/**
 * Pages and states checked with axe on purpose, in both appearances and at a phone's width; every other test's
 * states are checked by the guard in fixtures.ts.
 */
for (const path of ['/', '/faq', '/pricing', '/contact']) {
  for (const appearance of ['light', 'dark'] as const) {
    test(`${path} (${appearance}) has no serious or critical axe violation`, async ({ page }) => {
      if (appearance === 'dark') {
        await page.addInitScript(() =>
          localStorage.setItem(
            'ai-editor-theme',
            JSON.stringify({ primary: '#4f46e5', variant: 'professional', appearance: 'dark', radius: 0.5 }),
          ),
        );
      }
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // Let entrance animations finish so colours are measured at rest.
      await page.waitForTimeout(700);
      expect(await axeViolations(page)).toEqual([]);
    });
  }
}

test('/faq: its questions are headings one level below the page’s', async ({ page }) => {
  await page.goto('/faq');
  await expect(page.getByRole('heading', { level: 2, name: 'Is AI Editor free?' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3 })).toHaveCount(0);
});

test('/api-docs on a phone: its code blocks scroll, and the keyboard reaches them by name', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/api-docs');
  const examples = page.getByTestId('api-example');
  await expect(examples.first()).toBeVisible();
  const first = examples.first();
  expect(await first.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await first.focus();
  await expect(page.getByRole('region', { name: /: code$/ }).first()).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => first.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  expect(await axeViolations(page)).toEqual([]);
});

test('the account menu, open, on a computer and on a phone', async ({ page }) => {
  await page.goto('/');
  await signIn(page, 'Menu Checker');
  await page.reload();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.getByTestId('account-menu').click();
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    // What the menu tells (who, the uses left) is its description, read when it opens.
    await expect(menu).toHaveAccessibleDescription(/Menu Checker.*Uses left today/);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
  }
});
