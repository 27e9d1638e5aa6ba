import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signIn } from './auth-support';
import { expect, type Page, test } from './fixtures';
import { fixture } from './tool-support';

/**
 * Same-site forgery: a page on another port of the same host is the same site, so the SameSite=Lax session cookie
 * goes along with its requests. The server refuses what such a page sends (a form, a fetch); the app's own pages
 * work as before.
 */
const PHOTO = fs.readFileSync(fixture('astronaut.png')).toString('base64');

/** The other origin: one page with a form and a fetch aimed at the app, built to act with the visitor's cookie. */
function attackerPage(app: string): string {
  const target = `${app}/api/images?operation=pencil-sketch`;
  return `<!doctype html><html><body><h1>Free wallpapers</h1>
<form id="forged" method="post" enctype="multipart/form-data" action="${target}">
  <input type="hidden" name="operation" value="pencil-sketch"><input type="file" name="file" id="file">
</form>
<script>
  const bytes = Uint8Array.from(atob('${PHOTO}'), (c) => c.charCodeAt(0));
  const photo = () => new File([bytes], 'photo.png', { type: 'image/png' });
  const files = new DataTransfer();
  files.items.add(photo());
  document.getElementById('file').files = files.files;
  const body = new FormData();
  body.append('file', photo());
  // no-cors: the page cannot read the answer, it only wants the effect.
  window.fetched = fetch('${target}', { method: 'POST', mode: 'no-cors', credentials: 'include', body })
    .then(() => 'sent', (e) => String(e));
  window.cancelled = fetch('${app}/api/images/1/cancel', {
    method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: '{}',
  }).then(() => 'sent', (e) => String(e));
</script></body></html>`;
}

async function myJobs(page: Page): Promise<number> {
  const res = await page.request.get('/api/images');
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: unknown[] }).items.length;
}

test('a page on another port cannot submit a job with the visitor’s cookie; the app’s own page can', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  const attacker = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(attackerPage(baseURL as string));
  });
  await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  try {
    await page.goto(origin);
    await expect(page.getByRole('heading', { name: 'Free wallpapers' })).toBeVisible();
    // The fetches reach the server with the cookie (the page cannot read their answers: the app's
    // Cross-Origin-Resource-Policy keeps them from it, so fetch reports a failure either way).
    await page.evaluate(() => {
      const w = window as unknown as { fetched: Promise<string>; cancelled: Promise<string> };
      return Promise.all([w.fetched, w.cancelled]);
    });

    // The form: the browser goes to the server's answer, which the visitor reads.
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().startsWith(baseURL as string)),
      page.evaluate(() => (document.getElementById('forged') as HTMLFormElement).submit()),
    ]);
    expect(answer.status()).toBe(403);
    await expect(page.locator('body')).toContainText(
      'This request came from another site and was refused. Please use the app itself',
    );
    // Neither the fetch nor the form made a job with the visitor's cookie.
    expect(await myJobs(page)).toBe(0);
  } finally {
    attacker.close();
  }

  // The same request from the app's own page goes through.
  await page.goto('/');
  const status = await page.evaluate(async (photo) => {
    const bytes = Uint8Array.from(atob(photo), (c) => c.charCodeAt(0));
    const body = new FormData();
    body.append('file', new File([bytes], 'photo.png', { type: 'image/png' }));
    return (await fetch('/api/images?operation=pencil-sketch', { method: 'POST', body })).status;
  }, PHOTO);
  expect(status).toBe(201);
  expect(await myJobs(page)).toBe(1);
});
