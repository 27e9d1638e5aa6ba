import { expect, test } from './fixtures';

const PAGES = [
  '/',
  '/ai-apps',
  '/pricing',
  '/faq',
  '/docs',
  '/contact',
  '/status',
  '/customize',
  '/features/face-enhancement',
  '/features/cartoonization',
  '/about',
  '/press',
  '/api-docs',
  '/nope',
];

for (const width of [375, 1280]) {
  test.describe(`screenshots at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 740 : 800 } });
    for (const path of PAGES) {
      test(path, async ({ page }) => {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.waitForTimeout(500);
        const name = path === '/' ? 'home' : path.slice(1).replace(/\//g, '_');
        await page.screenshot({ path: `test-output/screenshots/${name}-${width}.png`, fullPage: true });
      });
    }
  });
}
