/**
 * Fair scheduling through the real server and real engine hosts: while one visitor's long job (a 2x upscale of a
 * 1920x1350 photo) runs, another visitor's short job (a pencil sketch) runs beside it on the quick lane's host and
 * completes first, and shows no queue position while it does.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInVisitor } from '../support/auth.js';
import { blob, fixture, startTestServer, type TestServer } from '../support/server.js';

type View = { status: string; metadata: { stage?: string; startedAt?: string; queuePosition?: number } };

describe('quick lane', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { QUICK_HOSTS: '1', JOB_TIMEOUT_MS: '600000' } });
  }, 600_000);
  afterAll(() => server?.close());

  it('completes a short job of one visitor while another visitor’s long job runs', async () => {
    const a = await signedInVisitor(server);
    const b = await signedInVisitor(server);
    const big = await sharp(fixture('astronaut.png')).resize(1920, 1350, { fit: 'fill' }).png().toBuffer();
    const res = await a.submit({ operation: 'super-resolution', scale: '2', file: blob(big, 'image/png') });
    expect(res.status).toBe(201);
    const long = ((await res.json()) as { id: number }).id;
    const view = async (id: number, who = a) => (await (await who.fetch(`/api/images/${id}`)).json()) as View;
    for (let i = 0; !(await view(long)).metadata.startedAt; i++) {
      if (i > 600) throw new Error('the long job never started');
      await new Promise((r) => setTimeout(r, 100));
    }

    const sub = await b.submit({ operation: 'pencil-sketch', file: blob(fixture('chelsea.png'), 'image/png') });
    expect(sub.status).toBe(201);
    const short = ((await sub.json()) as { id: number }).id;
    expect(await b.waitFor(short, 120_000)).toMatchObject({ status: 'completed' });
    // The long job is still at work: the short one did not wait for it.
    expect((await view(long)).status).toBe('pending');
    expect(await a.waitFor(long, 600_000)).toMatchObject({ status: 'completed' });
  }, 700_000);
});
