import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images, usageCounters } from '../src/db/schema.js';
import { emulatorReady, signIn } from './support/auth.js';
import { blob, fixture, startTestServer, type TestServer } from './support/server.js';

/**
 * 'Try another fill' through HTTP with the real object-removal engine: another try of the same photo and mask
 * gives another result, is not counted as a use, and the first job lists its tries.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await emulatorReady();
}, 600_000);
afterAll(() => server?.close());

/** A brushed blob over the cat's fur beside its eye (451x300 photo). */
const mask = () =>
  sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="451" height="300"><rect width="451" height="300"/><ellipse cx="250" cy="60" rx="34" ry="22" fill="#fff"/></svg>',
    ),
  )
    .png()
    .toBuffer();

async function counted(uid: string): Promise<number> {
  const rows = await server.handle.database.db
    .select({ count: usageCounters.count })
    .from(usageCounters)
    .where(and(eq(usageCounters.uid, uid), eq(usageCounters.operation, 'object-removal')));
  return rows.reduce((n, r) => n + r.count, 0);
}

describe('Try another fill (POST /api/images/:id/retry)', () => {
  it('fills the same mask differently, without a second use, and keeps every try', async () => {
    const visitor = server.visitor();
    const user = await signIn(visitor);
    const res = await visitor.submit({
      operation: 'object-removal',
      file: blob(fixture('chelsea.png'), 'image/png'),
      mask: blob(await mask(), 'image/png'),
    });
    expect(res.status).toBe(201);
    const first = (await visitor.waitFor(((await res.json()) as { id: number }).id, 120_000)) as {
      id: number;
      status: string;
      processedUrl: string;
    };
    expect(first.status).toBe('completed');
    expect(await counted(user.uid)).toBe(1);

    const again = await visitor.fetch(`/api/images/${first.id}/retry`, { method: 'POST' });
    expect(again.status).toBe(201);
    const second = (await visitor.waitFor(((await again.json()) as { id: number }).id, 120_000)) as {
      id: number;
      status: string;
      processedUrl: string;
    };
    expect(second.status).toBe('completed');
    expect(await counted(user.uid)).toBe(1);

    const bytes = async (url: string) => Buffer.from(await (await visitor.fetch(url)).arrayBuffer());
    const [a, b] = await Promise.all([bytes(first.processedUrl), bytes(second.processedUrl)]);
    const [ra, rb] = await Promise.all([a, b].map((x) => sharp(x).raw().toBuffer()));
    let changed = 0;
    for (let i = 0; i < (ra as Buffer).length; i++) if ((ra as Buffer)[i] !== (rb as Buffer)[i]) changed++;
    // Another fill inside the mask (about 2300 pixels x 3 channels); the rest of the photo is the same.
    expect(changed).toBeGreaterThan(1000);

    // A try of a try counts from the first job, and both list the same tries.
    const listed = (await (await visitor.fetch(`/api/images/${second.id}/tries`)).json()) as {
      tries: { id: number }[];
    };
    expect(listed.tries.map((t) => t.id)).toEqual([first.id, second.id]);

    // Someone else cannot try again on this job.
    const stranger = server.visitor();
    await signIn(stranger);
    expect((await stranger.fetch(`/api/images/${first.id}/retry`, { method: 'POST' })).status).toBe(404);

    // Ten minutes after the first job, another try is no longer free.
    await server.handle.database.db
      .update(images)
      .set({ createdAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(images.id, first.id));
    const late = await visitor.fetch(`/api/images/${second.id}/retry`, { method: 'POST' });
    expect(late.status).toBe(409);
    expect(((await late.json()) as { code: string }).code).toBe('RETRY_NOT_AVAILABLE');
    expect(await counted(user.uid)).toBe(1);
  }, 300_000);
});
