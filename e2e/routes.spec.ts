import { LIMITS, OPERATIONS } from '@ai-editor/core';
import { expect, test } from './fixtures';

const MAX_MB = `${LIMITS.maxUploadBytes / (1024 * 1024)}MB`;
const RETENTION = `${LIMITS.retentionHours} hours`;

/** Every route of the spec: its heading and something only that page has. */
const ROUTES: { path: string; heading: string | RegExp; content: (string | RegExp)[] }[] = [
  {
    path: '/',
    heading: 'Transform your images with AI',
    content: ['Try Face Enhancement', 'How It Works', 'What Users Say'],
  },
  { path: '/editor', heading: 'Editor', content: ['Drag & drop an image here, or click to select'] },
  {
    path: '/ai-apps',
    heading: 'AI Apps',
    content: [
      'Face Enhancement',
      'Text to Image',
      'Super Resolution',
      'Document Scanner & OCR',
      'AI Teacher',
      'Project Report Creator',
    ],
  },
  { path: '/pricing', heading: 'Pricing', content: ['Start Using Now', 'No watermarks', 'Full resolution output'] },
  { path: '/faq', heading: 'Frequently Asked Questions', content: ['Which image formats and sizes are supported?'] },
  { path: '/privacy', heading: 'Privacy Policy', content: [`deleted automatically ${RETENTION}`] },
  { path: '/terms', heading: 'Terms of Service', content: ['at least 13 years old'] },
  { path: '/cookies', heading: 'Cookie Policy', content: ['Session cookie'] },
  { path: '/dmca', heading: 'DMCA Notice and Takedown Policy', content: ['Counter-notice'] },
  { path: '/docs', heading: 'Documentation', content: [`up to ${MAX_MB}`, `after ${RETENTION}`, 'API Reference'] },
  { path: '/docs/object-removal', heading: 'Object Removal', content: ['Paint over everything you want removed'] },
  { path: '/docs/background-removal', heading: 'Background Removal', content: ['transparent'] },
  { path: '/docs/super-resolution', heading: 'Super Resolution', content: ['Real-ESRGAN'] },
  { path: '/docs/style-transfer', heading: 'Style Transfer', content: ['exactly once'] },
  { path: '/docs/best-practices', heading: 'Best Practices', content: [`up to ${MAX_MB} per image`] },
  { path: '/docs/troubleshooting', heading: 'Troubleshooting', content: ['File size too large. Maximum size is 10MB'] },
  { path: '/taguchi-design', heading: 'Tuning Settings with a Taguchi Design', content: ['orthogonal array'] },
  { path: '/api-docs', heading: 'API Reference', content: ['/api/images', '/api/health'] },
  { path: '/contact', heading: 'Contact Us', content: ['Send Message'] },
  { path: '/status', heading: 'System Status', content: ['Image Enhancement API', 'Background Jobs'] },
  { path: '/about', heading: 'About AI Editor', content: ['100k+', '1M+', 'AI features', '99%', '2024'] },
  {
    path: '/blog',
    heading: 'Blog',
    content: ['Try Face Enhancement', 'Try Background Removal', 'Try Super Resolution'],
  },
  { path: '/careers', heading: 'Careers', content: ['Open positions', 'Benefits'] },
  { path: '/press', heading: 'Press', content: ['Media kit', 'Press contact'] },
  { path: '/customize', heading: 'Customize', content: ['Primary colour', 'Variant', 'Appearance'] },
  { path: '/result?id=1', heading: 'Your Result', content: ['Back to Home'] },
  { path: '/no/such/page', heading: '404 Page Not Found', content: ['Back to Home'] },
];

for (const route of ROUTES) {
  test(`${route.path} renders its heading and content`, async ({ page }) => {
    await page.goto(route.path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(route.heading);
    for (const text of route.content) await expect(page.getByText(text).first()).toBeVisible();
  });
}

// Follows the catalogue, so these keep passing when an operation stops being "coming soon".
for (const op of OPERATIONS) {
  test(`${op.route} shows the tool frame (${op.status})`, async ({ page }) => {
    await page.goto(op.route);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(op.name);
    await expect(page.getByText(op.description)).toBeVisible();
    await expect(page.getByTestId('coming-soon')).toHaveCount(op.status === 'coming-soon' ? 1 : 0);
  });
}

test('the FAQ states the upload limit and retention from core', async ({ page }) => {
  await page.goto('/faq');
  await page.getByRole('button', { name: 'Which image formats and sizes are supported?' }).click();
  await expect(page.getByText(`up to ${MAX_MB} each`)).toBeVisible();
  await page.getByRole('button', { name: 'What happens to my images?' }).click();
  await expect(page.getByText(`deleted automatically ${RETENTION}`)).toBeVisible();
});

test('the server answers unknown /api paths with JSON 404 and client routes with the app', async ({ request }) => {
  const api = await request.get('/api/definitely-not-here');
  expect(api.status()).toBe(404);
  expect(await api.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
  const page = await request.get('/faq');
  expect(page.status()).toBe(200);
  expect(await page.text()).toContain('<div id="root">');
});

test('every media kit download exists', async ({ page, request }) => {
  await page.goto('/press');
  const links = page.getByTestId('media-kit-link');
  await expect(links).toHaveCount(4);
  for (const href of await links.evaluateAll((els) => els.map((e) => e.getAttribute('href') ?? ''))) {
    const res = await request.get(href);
    expect(res.status(), href).toBe(200);
    expect((await res.body()).length, href).toBeGreaterThan(100);
  }
});

test('the landing page is prerendered and hydrates without a mismatch', async ({ page, request }) => {
  const html = await (await request.get('/')).text();
  expect(html).toContain('Transform your images with AI');
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Try Face Enhancement' })).toBeVisible();
  // Hydrated: client-side navigation works without a page load.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pricing');
  expect(errors).toEqual([]);
});

test('other routes never show the prerendered landing page', async ({ page }) => {
  await page.goto('/faq');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently Asked Questions');
  await expect(page.getByText('Transform your images with AI')).toHaveCount(0);
});
