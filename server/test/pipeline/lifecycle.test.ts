import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInVisitor } from '../support/auth.js';
import { blob, fixture, startTestServer, type TestServer } from '../support/server.js';

/** The whole path through HTTP with the real background-removal engine. */
describe('job lifecycle', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('cuts out the subject of a real photo: submit, poll, completed, fetch the PNG', async () => {
    const visitor = await signedInVisitor(server);
    const res = await visitor.submit({
      file: blob(fixture('astronaut.png'), 'image/png'),
      operation: 'background-removal',
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: number; status: string; originalUrl: string };
    expect(created.status).toBe('pending');
    expect(created.originalUrl).toBe(`/api/images/${created.id}/original`);

    const done = (await visitor.waitFor(created.id)) as {
      status: string;
      processedUrl: string;
      metadata: { stage: string };
    };
    expect(done.status).toBe('completed');
    expect(done.metadata.stage).toBe('done');

    const file = await visitor.fetch(done.processedUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('cache-control')).toContain('private');
    const png = Buffer.from(await file.arrayBuffer());
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([512, 512, 4]);
    const alpha = (x: number, y: number) => data[(y * info.width + x) * 4 + 3] as number;
    // Background: the corners and the flag at the left edge. Subject: face, suit, helmet.
    for (const [x, y] of [
      [5, 5],
      [506, 5],
      [20, 200],
      [490, 60],
    ] as const)
      expect(alpha(x, y), `background ${x},${y}`).toBeLessThan(20);
    for (const [x, y] of [
      [230, 110],
      [250, 350],
      [400, 420],
    ] as const)
      expect(alpha(x, y), `subject ${x},${y}`).toBeGreaterThan(235);
  });

  it('serves a download named after the tool and the job, and the original as uploaded', async () => {
    const visitor = await signedInVisitor(server);
    const photo = fixture('rocket.jpg');
    const { id } = (await (
      await visitor.submit({ file: blob(photo, 'image/jpeg'), operation: 'background-removal' })
    ).json()) as { id: number };
    await visitor.waitFor(id);
    const dl = await visitor.fetch(`/api/images/${id}/download/0`);
    expect(dl.headers.get('content-disposition')).toBe(`attachment; filename="background-removal-${id}.png"`);
    const original = await visitor.fetch(`/api/images/${id}/original`);
    expect(original.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await original.arrayBuffer()).equals(photo)).toBe(true);
  });

  it('applies EXIF orientation and carries no metadata (GPS) into the result', async () => {
    const visitor = await signedInVisitor(server);
    // A 300x200 JPEG stored sideways (orientation 6) with a GPS position and a camera make.
    const sideways = await sharp(fixture('coffee.png'))
      .resize(300, 200)
      .jpeg()
      .withExif({ IFD0: { Make: 'TestCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(sideways).metadata()).orientation).toBe(6);
    const { id } = (await (await visitor.submit({ file: blob(sideways), operation: 'background-removal' })).json()) as {
      id: number;
    };
    const done = (await visitor.waitFor(id)) as { processedUrl: string };
    const png = Buffer.from(await (await visitor.fetch(done.processedUrl)).arrayBuffer());
    const meta = await sharp(png).metadata();
    expect([meta.width, meta.height]).toEqual([200, 300]);
    expect(meta.exif).toBeUndefined();
    expect(png.includes(Buffer.from('TestCam'))).toBe(false);
  });

  it('keeps a job and its files from every other session (404, as if it did not exist)', async () => {
    const owner = await signedInVisitor(server);
    // Another signed-in user, and a guest.
    const strangers = [await signedInVisitor(server), server.visitor()];
    const { id } = (await (
      await owner.submit({ file: blob(fixture('chelsea.png')), operation: 'background-removal' })
    ).json()) as { id: number };
    await owner.waitFor(id);
    for (const p of [
      `/api/images/${id}`,
      `/api/images/${id}/original`,
      `/api/images/${id}/result/0`,
      `/api/images/${id}/download/0`,
    ]) {
      for (const stranger of strangers) {
        const res = await stranger.fetch(p);
        expect(res.status, p).toBe(404);
        expect(await res.json()).toEqual({ code: 'NOT_FOUND', message: 'Image not found' });
      }
    }
    expect((await owner.fetch(`/api/images/${id}/result/0`)).status).toBe(200);
  });

  it('reports health of the database, storage, queue and each engine', async () => {
    const res = await server.visitor().fetch('/api/health');
    const health = (await res.json()) as {
      status: string;
      engines: { operation: string; available: boolean; engine: string | null }[];
      queue: { ok: boolean };
    };
    expect(res.status).toBe(200);
    expect(health.status).toBe('ok');
    expect(health.queue.ok).toBe(true);
    expect(health.engines.find((e) => e.operation === 'background-removal')).toMatchObject({
      available: true,
      engine: 'local',
    });
    expect(health.engines.some((e) => e.engine === 'local' && !/^[a-z-]+$/.test(e.operation))).toBe(false);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await server.visitor().fetch('/api/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
  });
});
