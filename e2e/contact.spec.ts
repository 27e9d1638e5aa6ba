import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { expect, freePortPair, test } from './fixtures';
import { startServer } from './server';

test('invalid input shows its messages and sends nothing', async ({ page }) => {
  let posted = 0;
  page.on('request', (req) => {
    if (req.url().endsWith('/api/contact')) posted++;
  });
  await page.goto('/contact');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Please enter your name')).toBeVisible();
  await expect(page.getByText('Please enter your email address')).toBeVisible();
  await expect(page.getByText('Message must be at least 10 characters')).toBeVisible();
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  expect(posted).toBe(0);
});

test('the server refuses what the browser would have caught', async ({ request }) => {
  const res = await request.post('/api/contact', { data: { name: 'A', email: 'nope', message: 'Hello there, world' } });
  expect(res.status()).toBe(400);
  expect((await res.json()).message).toContain('Please enter a valid email address');
});

// A server of its own, so its database can be opened after it stops (PGlite allows one process at a time).
test('a valid message is stored in the database', async ({ browser }) => {
  test.setTimeout(180_000);
  const port = await freePortPair();
  const server = await startServer({ port, env: { AUTH_EMULATOR_PORT: String(port + 1) } });
  try {
    const page = await browser.newPage({ baseURL: server.url });
    await page.goto('/contact');
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('ada@example.com');
    const text = `The analytical engine weaves patterns ${Date.now()}`;
    await page.getByLabel('Message').fill(text);
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByRole('region', { name: /Notifications/ }).getByText('Message sent')).toBeVisible();
    await expect(page.getByLabel('Message')).toHaveValue('');
    await page.close();
    await server.stop();
    const db = new PGlite(path.join(server.dataDir, 'db'));
    const { rows } = await db.query<{ name: string; email: string; message: string; client_ip: string }>(
      'select name, email, message, client_ip from contact_messages',
    );
    await db.close();
    expect(rows).toEqual([{ name: 'Ada Lovelace', email: 'ada@example.com', message: text, client_ip: '127.0.0.1' }]);
  } finally {
    await server.stop();
  }
});
