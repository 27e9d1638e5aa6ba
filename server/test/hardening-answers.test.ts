import { errorMessage, MAX_JOB_ID } from '@ai-editor/core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintUser, signedInVisitor } from './support/auth.js';
import { blob, fixture, HEALTH_HEADERS, startTestServer, type TestServer, testEngine } from './support/server.js';

/**
 * Forged cross-site requests, ids past the column, broken bodies, and the other answers that used to be wrong
 * (a 500, a network error, or the wrong message), against the real server.
 */
describe('hardening: forgery and right answers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { RETENTION_HOURS: '48', TRUST_PROXY: 'true', DAILY_USES_PER_OPERATION: '50' },
      localEngineOverrides: {
        'face-enhancement': testEngine('echo'),
        'pencil-sketch': testEngine('echo'),
        'object-removal': testEngine('echo'),
        'photo-restoration': testEngine('echo'),
        'hdr-enhancement': testEngine('slow-echo'),
      },
    });
  }, 400_000);
  afterAll(() => server?.close());

  const photo = () => blob(fixture('astronaut.png'), 'image/png');
  async function submitted(res: Response): Promise<number> {
    const body = (await res.json()) as { id?: number; message?: string };
    expect(res.status, body.message).toBe(201);
    return body.id as number;
  }

  describe('same-site forgery', () => {
    const forged = { origin: 'http://127.0.0.1:5699', 'content-type': 'text/plain' };

    it('refuses a cancel sent with the cookie from another port (Origin, text/plain); the app itself may cancel', async () => {
      const victim = await signedInVisitor(server);
      const id = await submitted(await victim.submit({ operation: 'hdr-enhancement', file: photo() }));
      const res = await victim.fetch(`/api/images/${id}/cancel`, { method: 'POST', headers: forged, body: '{}' });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        code: 'CROSS_SITE_REQUEST',
        message: 'This request came from another site and was refused. Please use the app itself',
      });
      // Browsers that send Sec-Fetch-Site: another port or a sibling subdomain is "same-site", not "same-origin".
      for (const site of ['same-site', 'cross-site']) {
        const r = await victim.fetch(`/api/images/${id}/cancel`, {
          method: 'POST',
          headers: { 'sec-fetch-site': site, origin: 'http://127.0.0.1:5699' },
        });
        expect(r.status, site).toBe(403);
      }
      expect(((await (await victim.fetch(`/api/images/${id}`)).json()) as { status: string }).status).toBe('pending');

      // The app's own page: same-origin, and an Origin naming the server's own host.
      const own = await victim.fetch(`/api/images/${id}/cancel`, {
        method: 'POST',
        headers: { 'sec-fetch-site': 'same-origin', origin: server.url },
      });
      expect(own.status).toBe(200);
      expect(((await own.json()) as { metadata: { error: string } }).metadata.error).toBe('Cancelled');
    });

    it('checks the Origin against the request’s own host where the browser sends no Sec-Fetch-Site', async () => {
      const v = await signedInVisitor(server);
      const id = await submitted(await v.submit({ operation: 'pencil-sketch', file: photo() }));
      await v.waitFor(id);
      const sibling = await v.fetch(`/api/images/${id}`, {
        method: 'DELETE',
        headers: { origin: 'http://editor.127.0.0.1.nip.io' },
      });
      expect(sibling.status).toBe(403);
      expect((await v.fetch(`/api/images/${id}`, { method: 'DELETE', headers: { origin: 'null' } })).status).toBe(403);
      expect((await v.fetch(`/api/images/${id}`)).status).toBe(200);
      const own = await v.fetch(`/api/images/${id}`, { method: 'DELETE', headers: { origin: server.url } });
      expect(own.status).toBe(204);
    });

    it('refuses a job submitted by another origin’s form, and sign-in (login forgery) too', async () => {
      const v = await signedInVisitor(server);
      const form = new FormData();
      form.append('operation', 'pencil-sketch');
      form.append('file', photo());
      const res = await v.fetch('/api/images', {
        method: 'POST',
        body: form,
        headers: { 'sec-fetch-site': 'same-site' },
      });
      expect(res.status).toBe(403);
      const list = (await (await v.fetch('/api/images')).json()) as { items: unknown[] };
      expect(list.items).toEqual([]);
      const user = await mintUser();
      const signIn = await server.visitor().fetch('/api/session', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' },
        body: JSON.stringify({ idToken: user.idToken }),
      });
      expect(signIn.status).toBe(403);
    });

    it('lets requests with an Authorization header through (no ambient credential), and reads are never refused', async () => {
      const user = await mintUser();
      const res = await fetch(`${server.url}/api/session`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${user.idToken}`,
          origin: 'http://127.0.0.1:5699',
          'sec-fetch-site': 'cross-site',
        },
      });
      expect(res.status).toBe(200);
      const read = await fetch(`${server.url}/api/me`, { headers: { 'sec-fetch-site': 'cross-site' } });
      expect(read.status).toBe(200);
    });

    it('checks a request whose Authorization is not a bearer credential: the cookie still decides who it is', async () => {
      const v = await signedInVisitor(server);
      const id = await submitted(await v.submit({ operation: 'hdr-enhancement', file: photo() }));
      // Basic credentials a browser can add by itself (a URL's user:password): the session cookie goes along.
      const res = await v.fetch(`/api/images/${id}/cancel`, {
        method: 'POST',
        headers: { authorization: 'Basic dTpw', origin: 'http://127.0.0.1:5699', 'sec-fetch-site': 'same-site' },
      });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('CROSS_SITE_REQUEST');
      expect(((await (await v.fetch(`/api/images/${id}`)).json()) as { status: string }).status).toBe('pending');
      expect((await v.fetch(`/api/images/${id}/cancel`, { method: 'POST' })).status).toBe(200);
    });
  });

  describe('ids past what the column holds', () => {
    const notFound = { code: 'NOT_FOUND', message: 'Image not found' };
    const tooBig = [String(MAX_JOB_ID + 1), '99999999999', '999999999999'];

    it('answers 404 (not 500) on every id route, for source= and for cursor=', async () => {
      const v = await signedInVisitor(server);
      for (const id of [...tooBig, String(MAX_JOB_ID)]) {
        for (const [method, path] of [
          ['GET', `/api/images/${id}`],
          ['GET', `/api/images/${id}/original`],
          ['GET', `/api/images/${id}/result/0`],
          ['GET', `/api/images/${id}/download/0`],
          ['GET', `/api/images/${id}/thumbnail`],
          ['GET', `/api/images/${id}/recommendations`],
          ['POST', `/api/images/${id}/cancel`],
          ['DELETE', `/api/images/${id}`],
        ] as const) {
          const res = await v.fetch(path, { method });
          expect(res.status, `${method} ${path}`).toBe(404);
          expect(await res.json()).toEqual(notFound);
        }
      }
      for (const id of tooBig) {
        const res = await v.fetch(`/api/images?cursor=${id}`);
        expect(res.status, `cursor=${id}`).toBe(404);
        expect(await res.json()).toEqual(notFound);
        const chained = await v.submit({ operation: 'pencil-sketch', source: id });
        expect(chained.status, `source=${id}`).toBe(404);
        expect(await chained.json()).toEqual(notFound);
      }
    });
  });

  describe('broken bodies', () => {
    const boundary = 'hardening-boundary';
    const head = (name: string, file?: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"\r\nContent-Type: image/png` : ''}\r\n\r\n`;

    it('answers a truncated or malformed multipart body with 400, not 500', async () => {
      const v = await signedInVisitor(server);
      const png = fixture('astronaut.png');
      const truncated = Buffer.concat([
        Buffer.from(`${head('operation')}pencil-sketch\r\n${head('file', 'a.png')}`),
        png.subarray(0, 5000),
      ]);
      for (const [type, body] of [
        [`multipart/form-data; boundary=${boundary}`, truncated],
        // No boundary to split the form on.
        ['multipart/form-data', Buffer.from('garbage')],
      ] as const) {
        const res = await v.fetch('/api/images?operation=pencil-sketch', {
          method: 'POST',
          headers: { 'content-type': type },
          body,
        });
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({
          code: 'MALFORMED_UPLOAD',
          message: 'The upload was cut short or is malformed. Please try again',
        });
      }
    });

    it('a JSON body over the limit is told about the body; a __proto__ key and broken JSON are named as such', async () => {
      const big = JSON.stringify({ name: 'A', email: 'a@example.com', message: 'x'.repeat(1_100_000) });
      const json = { 'content-type': 'application/json' };
      const res = await fetch(`${server.url}/api/contact`, { method: 'POST', headers: json, body: big });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({
        code: 'BODY_TOO_LARGE',
        message: 'The request body is too large. The limit is 1 MB',
      });
      const proto = await fetch(`${server.url}/api/contact`, {
        method: 'POST',
        headers: json,
        body: '{"name":"A","email":"a@example.com","message":"hello there!","__proto__":{"admin":true}}',
      });
      expect(proto.status).toBe(400);
      expect(await proto.json()).toEqual({
        code: 'BAD_REQUEST',
        message: 'The body may not contain a "__proto__" or "constructor.prototype" key',
      });
      const broken = await fetch(`${server.url}/api/contact`, { method: 'POST', headers: json, body: '{"name":' });
      expect(await broken.json()).toEqual({ code: 'BAD_REQUEST', message: 'The body is not valid JSON' });
    });

    it('names the field and the values it takes for a yes/no parameter', async () => {
      const v = await signedInVisitor(server);
      const res = await v.submit({ operation: 'photo-restoration', enhance_faces: 'yes', file: photo() });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        code: 'INVALID_PARAMETER',
        message: 'Invalid value for "enhance_faces": must be true or false',
      });
    });

    it('refuses an all-black mask with 422 before a use is spent', async () => {
      const v = await signedInVisitor(server);
      const mask = await sharp({ create: { width: 512, height: 512, channels: 3, background: '#000' } })
        .png()
        .toBuffer();
      // Dark grey is below the threshold the engines use: nothing painted either.
      const dark = await sharp({ create: { width: 512, height: 512, channels: 3, background: '#404040' } })
        .png()
        .toBuffer();
      for (const m of [mask, dark]) {
        const res = await v.submit({ operation: 'object-removal', file: photo(), mask: blob(m, 'image/png') });
        expect(res.status).toBe(422);
        expect(await res.json()).toEqual({ code: 'MASK_EMPTY', message: errorMessage('MASK_EMPTY') });
      }
      const me = (await (await v.fetch('/api/me')).json()) as { usage: Record<string, { used: number }> };
      expect(me.usage['object-removal']?.used).toBe(0);
    });

    it('early refusals are read by Node’s fetch as answers, not broken pipes (small and 9 MB uploads)', async () => {
      const large = Buffer.alloc(9 * 1024 * 1024, 1);
      fixture('astronaut.png').copy(large);
      const small = fixture('astronaut.png');
      for (const bytes of [small, large]) {
        for (let i = 0; i < 8; i++) {
          // A guest asking for a tool guests may not use: refused before the upload is read.
          const form = new FormData();
          form.append('file', blob(bytes, 'image/png'));
          const res = await fetch(`${server.url}/api/images?operation=hdr-enhancement`, { method: 'POST', body: form });
          expect(res.status).toBe(403);
          expect(((await res.json()) as { code: string }).code).toBe('FEATURE_RESTRICTED');
        }
      }
    }, 120_000);
  });

  it('says how long files are kept from RETENTION_HOURS when they are gone', async () => {
    const v = await signedInVisitor(server);
    const id = await submitted(await v.submit({ operation: 'pencil-sketch', file: photo() }));
    await v.waitFor(id);
    await server.handle.retention.sweep(new Date(Date.now() + 49 * 3_600_000));
    const res = await v.fetch(`/api/images/${id}/original`);
    expect(res.status).toBe(410);
    expect(await res.json()).toEqual({
      code: 'RESULT_EXPIRED',
      message: 'This image was deleted 48 hours after it was created',
    });
  });

  it('marks the session cookie Secure when the request arrived over HTTPS (TRUST_PROXY and X-Forwarded-Proto)', async () => {
    const tls = await fetch(`${server.url}/api/me`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers.getSetCookie()[0]).toMatch(/; Secure/);
    const plain = await fetch(`${server.url}/api/me`);
    expect(plain.headers.getSetCookie()[0]).not.toMatch(/Secure/);
  });

  it('shows the public a health summary; host PIDs, memory and free bytes only with the operators’ token', async () => {
    const pub = (await (await fetch(`${server.url}/api/health`)).json()) as Record<string, any>;
    expect(pub.status).toBe('ok');
    expect(pub.engines.length).toBeGreaterThan(0);
    expect(pub).not.toHaveProperty('engineHosts');
    expect(pub.storage).not.toHaveProperty('freeBytes');
    expect(JSON.stringify(pub)).not.toMatch(/pid|rss/i);
    const wrong = (await (
      await fetch(`${server.url}/api/health`, { headers: { 'x-health-token': 'guess' } })
    ).json()) as Record<string, unknown>;
    expect(wrong).not.toHaveProperty('engineHosts');
    const admin = (await (await fetch(`${server.url}/api/health`, { headers: HEALTH_HEADERS })).json()) as Record<
      string,
      any
    >;
    expect(admin.engineHosts.pids).toBeInstanceOf(Array);
    expect(admin.storage.freeBytes).toBeGreaterThan(0);
  });
});
