import { errorMessage } from '@ai-editor/core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../support/auth.js';
import { blob, fixture, startTestServer, type TestServer, testEngine, type Visitor } from '../support/server.js';

/**
 * Guests under the same rules as everyone: face enhancement counts against the daily allowance (2 by default) per
 * guest session, and a guest's result is served as a preview (long side at most 1024 px) until sign-in.
 */
let server: TestServer;
let large: Blob;

beforeAll(async () => {
  server = await startTestServer({ localEngineOverrides: { 'face-enhancement': testEngine('echo') } });
  // 2000 x 1333: the echo engine returns it at that size, larger than a preview.
  large = blob(await sharp(fixture('coffee.png')).resize(2000).png().toBuffer(), 'image/png');
}, 240_000);
afterAll(() => server?.close());

const submit = (v: Visitor) => v.submit({ operation: 'face-enhancement', file: large });
const me = async (v: Visitor) =>
  (await (await v.fetch('/api/me')).json()) as { usage: Record<string, { used: number; left: number | null }> };

describe('guests', () => {
  it("a guest's third face enhancement of the day is refused with the daily-limit message", async () => {
    const guest = server.visitor();
    for (const left of [1, 0]) {
      expect((await submit(guest)).status).toBe(201);
      expect((await me(guest)).usage['face-enhancement']).toMatchObject({ left });
    }
    const third = await submit(guest);
    expect(third.status).toBe(429);
    expect(await third.json()).toEqual({ code: 'DAILY_LIMIT_REACHED', message: errorMessage('DAILY_LIMIT_REACHED') });
    // Another guest session has its own allowance.
    expect((await submit(server.visitor())).status).toBe(201);
  });

  it('a guest gets a preview at most 1024 px; after sign-in the same job gives the full-size result', async () => {
    const guest = server.visitor();
    const created = (await (await submit(guest)).json()) as { id: number; preview?: boolean };
    expect(created.preview).toBe(true);
    const job = (await guest.waitFor(created.id)) as { status: string; processedUrl: string };
    expect(job.status).toBe('completed');
    const shown = await guest.fetch(job.processedUrl);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('cache-control')).toBe('private, no-store');
    const preview = await sharp(Buffer.from(await shown.arrayBuffer())).metadata();
    expect(Math.max(preview.width, preview.height)).toBe(1024);
    expect((await guest.fetch(job.processedUrl.replace('/result/', '/download/'))).status).toBe(403);

    await signIn(guest);
    const moved = (await (await guest.fetch(`/api/images/${created.id}`)).json()) as { preview?: boolean };
    expect(moved.preview).toBeUndefined();
    const full = await sharp(Buffer.from(await (await guest.fetch(job.processedUrl)).arrayBuffer())).metadata();
    expect([full.width, full.height]).toEqual([2000, 1333]);
    expect((await guest.fetch(job.processedUrl.replace('/result/', '/download/'))).status).toBe(200);
  });
});
