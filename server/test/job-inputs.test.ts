import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInVisitor } from './support/auth.js';
import { blob, fixture, startTestServer, type TestServer, testEngine } from './support/server.js';

interface JobView {
  id: number;
  status: string;
  parameters: Record<string, unknown>;
  originalUrl: string | null;
  maskUrl: string | null;
  secondPhotoUrl: string | null;
  metadata: { expired?: boolean };
}

/**
 * A job's view holds what it ran with (parameters, photo, mask, second photo), so a page can show them again after
 * a reload; the files are its owner's only and go with the retention sweep.
 */
describe('the inputs a job ran with', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      localEngineOverrides: { 'object-removal': testEngine('echo'), 'super-resolution': testEngine('echo') },
    });
  });
  afterAll(() => server.close());

  const photo = () => blob(fixture('astronaut.png'), 'image/png');

  it('shows the mask and the parameters of an object removal to its owner only', async () => {
    const visitor = await signedInVisitor(server);
    const mask = await sharp({ create: { width: 512, height: 512, channels: 3, background: '#000' } })
      .composite([{ input: { create: { width: 64, height: 64, channels: 3, background: '#fff' } }, left: 10, top: 10 }])
      .png()
      .toBuffer();
    const res = await visitor.submit({ file: photo(), mask: blob(mask, 'image/png'), operation: 'object-removal' });
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as JobView;
    const job = (await visitor.waitFor(id)) as unknown as JobView;
    expect(job.maskUrl).toBe(`/api/images/${id}/mask`);
    expect(job.secondPhotoUrl).toBeNull();
    const served = await visitor.fetch(job.maskUrl as string);
    expect(served.status).toBe(200);
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([512, 512]);
    // Another visitor, signed in or not, gets the 404 of a missing job.
    expect((await (await signedInVisitor(server)).fetch(job.maskUrl as string)).status).toBe(404);
    expect((await server.visitor().fetch(job.maskUrl as string)).status).toBe(404);
  });

  it('keeps the chosen parameters (a 4x upscale says scale 4); a job without a mask has none to serve', async () => {
    const visitor = await signedInVisitor(server);
    const res = await visitor.submit({ file: photo(), operation: 'super-resolution', scale: '4' });
    const { id } = (await res.json()) as JobView;
    const job = (await visitor.waitFor(id)) as unknown as JobView;
    expect(job.parameters.scale).toBe('4');
    expect(job.maskUrl).toBeNull();
    const missing = await visitor.fetch(`/api/images/${id}/mask`);
    expect([missing.status, ((await missing.json()) as { code: string }).code]).toEqual([404, 'NOT_FOUND']);
  });

  it('after the retention sweep the view says expired and names no file', async () => {
    const visitor = await signedInVisitor(server);
    const mask = await sharp({ create: { width: 512, height: 512, channels: 3, background: '#fff' } })
      .extract({ left: 0, top: 0, width: 512, height: 512 })
      .composite([{ input: { create: { width: 400, height: 400, channels: 3, background: '#000' } }, left: 0, top: 0 }])
      .png()
      .toBuffer();
    const res = await visitor.submit({ file: photo(), mask: blob(mask, 'image/png'), operation: 'object-removal' });
    const { id } = (await res.json()) as JobView;
    await visitor.waitFor(id);
    await server.handle.retention.sweep(new Date(Date.now() + 25 * 3_600_000));
    const job = (await (await visitor.fetch(`/api/images/${id}`)).json()) as JobView;
    expect([job.originalUrl, job.maskUrl, job.metadata.expired]).toEqual([null, null, true]);
    const gone = await visitor.fetch(`/api/images/${id}/mask`);
    expect([gone.status, ((await gone.json()) as { code: string }).code]).toEqual([410, 'RESULT_EXPIRED']);
  });
});
