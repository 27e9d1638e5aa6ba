import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signIn } from './auth-support';
import { expect, type Page, test } from './fixtures';
import { fixture, resizedPhoto } from './tool-support';

/**
 * Same-site forgery: a page on another port of the same host is the same site, so the SameSite=Lax session cookie
 * goes along with its requests. The server refuses what such a page sends (a form, a fetch); the app's own pages
 * work as before.
 */
const PHOTO = fs.readFileSync(fixture('astronaut.png')).toString('base64');

/**
 * The other origin: one page with a form and fetches aimed at the app, built to act with the visitor's cookie: a job
 * submitted, and the visitor's running job cancelled (a text/plain POST, a "simple" request sent without asking).
 */
function attackerPage(app: string, victimJob: number): string {
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
  window.cancelled = fetch('${app}/api/images/${victimJob}/cancel', {
    method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: '{}',
  }).then(() => 'sent', (e) => String(e));
</script></body></html>`;
}

async function myJobs(page: Page): Promise<number> {
  const res = await page.request.get('/api/images');
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: unknown[] }).items.length;
}

async function view(page: Page, id: number): Promise<{ status: string; metadata: { errorCode?: string } }> {
  return (await page.request.get(`/api/images/${id}`)).json();
}

test('a page on another port cannot submit a job or cancel one with the visitor’s cookie; the app’s own page can', async ({
  page,
  baseURL,
}, info) => {
  test.setTimeout(180_000);
  await signIn(page);
  // The visitor's job, still running while the other page is open: denoising a 4000 px photo takes seconds.
  const large = await resizedPhoto('chelsea.png', 4000, 2667, info.outputDir, 'jpeg');
  const submitted = await page.request.post('/api/images', {
    multipart: {
      operation: 'denoising',
      file: { name: 'large.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(large) },
    },
  });
  expect(submitted.status()).toBe(201);
  const running = ((await submitted.json()) as { id: number }).id;

  const attacker = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(attackerPage(baseURL as string, running));
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
    // The forged cancel reached a job that was still running, and the job runs on.
    expect((await view(page, running)).status).toBe('pending');

    // The form: the browser goes to the server's answer, which the visitor reads.
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().startsWith(baseURL as string)),
      page.evaluate(() => (document.getElementById('forged') as HTMLFormElement).submit()),
    ]);
    expect(answer.status()).toBe(403);
    await expect(page.locator('body')).toContainText(
      'This request came from another site and was refused. Please use the app itself',
    );
    await page.screenshot({ path: info.outputPath('forged-form-refused.png') });
    // Neither the fetch nor the form made a job with the visitor's cookie: only the visitor's own is listed.
    expect(await myJobs(page)).toBe(1);
  } finally {
    attacker.close();
  }

  // The same requests from the app's own page go through: a job submitted, the running one cancelled.
  await page.goto('/');
  const statuses = await page.evaluate(
    async ({ photo, id }) => {
      const bytes = Uint8Array.from(atob(photo), (c) => c.charCodeAt(0));
      const body = new FormData();
      body.append('file', new File([bytes], 'photo.png', { type: 'image/png' }));
      const submit = await fetch('/api/images?operation=pencil-sketch', { method: 'POST', body });
      const cancel = await fetch(`/api/images/${id}/cancel`, { method: 'POST' });
      return [submit.status, cancel.status];
    },
    { photo: PHOTO, id: running },
  );
  expect(statuses).toEqual([201, 200]);
  expect(await myJobs(page)).toBe(2);
  expect((await view(page, running)).metadata.errorCode).toBe('CANCELLED');
});
