import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInVisitor } from '../support/auth.js';
import { blob, fixture, startTestServer, type TestServer, testEngine } from '../support/server.js';

const BOUNDARY = 'early-answer-boundary';
const BODY_BYTES = 8 * 1024 * 1024;
const CHUNK = 64 * 1024;

interface Trickled {
  status: number;
  body: { code: string; message: string };
  /** Bytes of the body sent when the answer arrived. */
  sentWhenAnswered: number;
}

/**
 * Sends a multipart upload of 8 MB in 64 KB chunks, 20 ms apart (about 2.6 s in all), with the given fields
 * first, and reports how much had been sent when the answer came.
 */
function trickle(url: string, path: string, firstFields: Record<string, string>): Promise<Trickled> {
  const head = Object.entries(firstFields)
    .map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const fileHead = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`;
  const tail = `\r\n--${BOUNDARY}--\r\n`;
  const total = Buffer.byteLength(head) + Buffer.byteLength(fileHead) + BODY_BYTES + Buffer.byteLength(tail);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(total) },
    });
    req.on('error', (err) => {
      // Once answered, the server may close the connection under the rest of the upload: that is the point.
      if (!answered) reject(err);
    });
    req.on('response', (res) => {
      answered = true;
      const sentWhenAnswered = sent;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()), sentWhenAnswered }),
      );
    });
    const write = (b: Buffer | string) => {
      sent += Buffer.byteLength(b);
      req.write(b);
    };
    write(head + fileHead);
    let left = BODY_BYTES;
    const timer = setInterval(() => {
      if (answered || req.destroyed) return clearInterval(timer);
      const n = Math.min(CHUNK, left);
      write(Buffer.alloc(n, 1));
      left -= n;
      if (left === 0) {
        clearInterval(timer);
        write(tail);
        req.end();
      }
    }, 20);
  });
}

describe('guest rules answered before the upload is read', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { GUEST_SUBMISSIONS_PER_WINDOW: '1' },
      localEngineOverrides: { 'face-enhancement': testEngine('echo'), 'background-removal': testEngine('echo') },
    });
  });
  afterAll(() => server.close());

  it("refuses a guest's forbidden tool named in the query string before the body is sent", async () => {
    const r = await trickle(server.url, '/api/images?operation=background-removal', {});
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('FEATURE_RESTRICTED');
    expect(r.sentWhenAnswered).toBeLessThan(BODY_BYTES / 2);
  });

  it("refuses a guest's forbidden tool named in the first form field before the body is sent", async () => {
    const r = await trickle(server.url, '/api/images', { operation: 'background-removal' });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      code: 'FEATURE_RESTRICTED',
      message: 'Please sign in with Google to access all features.',
    });
    expect(r.sentWhenAnswered).toBeLessThan(BODY_BYTES / 2);
  });

  it('answers the guest rate limit before the body is sent', async () => {
    // The one submission this window allows (a real one), then the next is refused on its first bytes.
    const first = await server
      .visitor()
      .submit({ operation: 'face-enhancement', file: blob(fixture('astronaut.png')) });
    expect(first.status).toBe(201);
    const r = await trickle(server.url, '/api/images?operation=face-enhancement', {});
    expect(r.status).toBe(429);
    expect(r.body.code).toBe('RATE_LIMITED');
    expect(r.sentWhenAnswered).toBeLessThan(BODY_BYTES / 2);
  });

  it('takes the operation from the query string for a normal submission, and refuses a form that disagrees', async () => {
    const visitor = await signedInVisitor(server);
    const form = new FormData();
    form.append('file', blob(fixture('astronaut.png')));
    const ok = await visitor.fetch('/api/images?operation=background-removal', { method: 'POST', body: form });
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as { operation: string }).operation).toBe('background-removal');
    const both = new FormData();
    both.append('operation', 'face-enhancement');
    both.append('file', blob(fixture('astronaut.png')));
    const clash = await visitor.fetch('/api/images?operation=background-removal', { method: 'POST', body: both });
    expect(clash.status).toBe(400);
    expect(((await clash.json()) as { message: string }).message).toBe(
      'The operation in the address and in the form differ',
    );
  });
});
