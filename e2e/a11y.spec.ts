import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';

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
      const { violations } = await new AxeBuilder({ page }).analyze();
      const bad = violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(bad).toEqual([]);
    });
  }
}
