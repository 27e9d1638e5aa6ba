import type { ClientConfig } from '@ai-editor/core';
import { expect, test } from './fixtures';

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the sheet menu opens and contains Home', async ({ page }) => {
    await page.goto('/faq');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const sheet = page.getByRole('dialog');
    await expect(sheet).toBeVisible();
    for (const name of ['Home', 'AI APPS', 'Pricing', 'FAQ'])
      await expect(sheet.getByRole('link', { name })).toBeVisible();
    await sheet.getByRole('link', { name: 'Home' }).click();
    await expect(sheet).toBeHidden();
    await expect(page).toHaveURL(/\/$/);
  });

  test('footer groups start closed and toggle', async ({ page }) => {
    await page.goto('/');
    const footer = page.locator('footer');
    for (const group of ['Product', 'Legal', 'Support', 'Company']) {
      await expect(footer.getByRole('button', { name: group })).toHaveAttribute('aria-expanded', 'false');
    }
    await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toBeHidden();
    await footer.getByRole('button', { name: 'Legal' }).click();
    await expect(footer.getByRole('button', { name: 'Legal' })).toHaveAttribute('aria-expanded', 'true');
    await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Documentation' })).toBeHidden();
    await footer.getByRole('button', { name: 'Legal' }).click();
    await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toBeHidden();
  });
});

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('all footer groups are open and the top navigation is shown', async ({ page }) => {
    await page.goto('/');
    const footer = page.locator('footer');
    for (const link of [
      'AI Apps',
      'Customize',
      'Privacy Policy',
      'DMCA',
      'Documentation',
      'API Docs',
      'About',
      'Press',
    ]) {
      await expect(footer.getByRole('link', { name: link, exact: true })).toBeVisible();
    }
    await expect(footer.getByRole('button', { name: 'Product' })).toHaveCount(0);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['AI APPS', 'Pricing', 'FAQ']) await expect(nav.getByRole('link', { name })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();
  });

  test('social links come from the server config and open in a new tab', async ({ page, request }) => {
    const config = (await (await request.get('/api/config')).json()) as ClientConfig;
    await page.goto('/');
    const links = page.getByRole('list', { name: 'Social links' }).getByRole('link');
    await expect(links).toHaveCount(Object.values(config.socialLinks).filter(Boolean).length);
    await expect(page.getByRole('link', { name: 'Source code' })).toHaveAttribute(
      'href',
      config.socialLinks.code as string,
    );
    for (const link of await links.all()) {
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
    await expect(page.locator('footer')).toContainText(`© ${new Date().getFullYear()} AI Editor. All rights reserved.`);
  });

  test('the logo links home and the page scrolls to the top on navigation', async ({ page }) => {
    await page.goto('/terms');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of Service');
    // Scroll down (again, if the smooth scroll-to-top of the first load was still running).
    await expect
      .poll(() => page.evaluate(() => (window.scrollTo({ top: 3000, behavior: 'instant' }), window.scrollY)))
      .toBeGreaterThan(500);
    await page.locator('footer').getByRole('link', { name: 'Cookie Policy' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cookie Policy');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await page.getByRole('banner').getByRole('link', { name: 'AI Editor home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test('two toasts in a row leave one visible, and F8 focuses the toast region', async ({ page }) => {
  await page.goto('/customize');
  const reset = page.getByRole('button', { name: 'Reset to default' });
  // Radix also announces each toast in a live region outside the viewport: look inside the viewport only.
  const region = page.getByRole('region', { name: /Notifications/ });
  await reset.click();
  await expect(region.getByText('Theme reset')).toBeVisible();
  await reset.click();
  await expect(region.getByText('Theme reset')).toHaveCount(1);
  await expect(region.locator('li')).toHaveCount(1);
  await page.keyboard.press('F8');
  // Radix puts focus on the toast list inside the "Notifications (F8)" region.
  const inRegion = await page.evaluate(() =>
    Boolean(document.activeElement?.closest('[role="region"][aria-label^="Notifications"]')),
  );
  expect(inRegion).toBe(true);
});

test('a theme change on /customize survives a reload', async ({ page }) => {
  await page.goto('/customize');
  await page.getByRole('button', { name: 'dark' }).click();
  await page.getByRole('button', { name: 'Primary colour #e11d48' }).click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Customize');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByRole('button', { name: 'dark' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Primary colour #e11d48' })).toHaveAttribute('aria-pressed', 'true');
  const primary = await page.evaluate(() => document.documentElement.style.getPropertyValue('--primary'));
  expect(primary).toMatch(/^hsl\(347 /);
  // Reset brings the default back, and that survives a reload too.
  await page.getByRole('button', { name: 'Reset to default' }).click();
  await page.reload();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
});
