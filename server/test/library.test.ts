import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInVisitor, signIn } from './support/auth.js';
import {
  blob,
  fixture,
  startTestServer,
  storedFiles,
  type TestServer,
  testEngine,
  type Visitor,
} from './support/server.js';

interface ListItem {
  id: number;
  operation: string;
  status: string;
  thumbnailUrl: string | null;
  processedUrl: string | null;
  originalUrl: string | null;
  createdAt: string;
  expiresAt: string;
  sourceImageId: number | null;
}
interface ListPage {
  items: ListItem[];
  nextCursor: number | null;
}

/**
 * My images (GET/DELETE /api/images, thumbnails) and chained jobs, through the real server. The jobs run the echo
 * engine (the photo back as PNG), so what is tested is the library, not a model.
 */
describe('My images and chained jobs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      localEngineOverrides: {
        'background-removal': testEngine('echo'),
        'face-enhancement': testEngine('echo'),
        denoising: testEngine('echo'),
        'super-resolution': testEngine('hang'),
        'hdr-enhancement': new URL('./test-engines/slow-echo.ts', import.meta.url).href,
      },
      env: { DAILY_USES_PER_OPERATION: '10', JOB_TIMEOUT_MS: '3000' },
    });
  });
  afterAll(() => server.close());

  async function run(visitor: Visitor, fields: Record<string, string | Blob>): Promise<ListItem> {
    const res = await visitor.submit(fields);
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: number };
    return (await visitor.waitFor(id)) as unknown as ListItem;
  }
  const photo = (name = 'astronaut.png') => blob(fixture(name), 'image/png');
  const list = async (visitor: Visitor, query = '') =>
    (await (await visitor.fetch(`/api/images${query}`)).json()) as ListPage;
  const filesOf = (id: number) =>
    storedFiles(server.dataDir).filter((f) => f.includes(`/results/${id}/`) || f.endsWith(`/thumbnails/${id}.webp`));

  it('lists my jobs newest first, one page at a time, with when each is deleted', async () => {
    const visitor = await signedInVisitor(server);
    const made: number[] = [];
    for (const operation of ['background-removal', 'face-enhancement', 'denoising']) {
      made.push((await run(visitor, { file: photo(), operation })).id);
    }
    const first = await list(visitor, '?limit=2');
    expect(first.items.map((i) => i.id)).toEqual([made[2], made[1]]);
    expect(first.nextCursor).toBe(made[1]);
    const second = await list(visitor, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((i) => i.id)).toEqual([made[0]]);
    expect(second.nextCursor).toBeNull();
    const item = first.items[0] as ListItem;
    expect(item.operation).toBe('denoising');
    expect(item.status).toBe('completed');
    expect(Date.parse(item.expiresAt) - Date.parse(item.createdAt)).toBe(24 * 3_600_000);
    // Nobody else sees them.
    expect((await list(await signedInVisitor(server))).items).toEqual([]);
    expect((await list(server.visitor())).items).toEqual([]);
  });

  it('serves a small WebP thumbnail of the result, made once and kept in storage', async () => {
    const visitor = await signedInVisitor(server);
    const job = await run(visitor, { file: photo(), operation: 'background-removal' });
    const [item] = (await list(visitor)).items;
    expect(item?.thumbnailUrl).toBe(`/api/images/${job.id}/thumbnail?v=completed`);
    const res = await visitor.fetch(item?.thumbnailUrl as string);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 192, 192]);
    expect(bytes.length).toBeLessThan(20_000);
    expect(filesOf(job.id).some((f) => f.endsWith(`thumbnails/${job.id}.webp`))).toBe(true);
    expect((await server.visitor().fetch(item?.thumbnailUrl as string)).status).toBe(404);
  });

  it('deletes one job: its files and its record go at once, and its URLs answer 404', async () => {
    const visitor = await signedInVisitor(server);
    const keep = await run(visitor, { file: photo(), operation: 'face-enhancement' });
    const job = await run(visitor, { file: photo('coffee.png'), operation: 'background-removal' });
    await visitor.fetch(`/api/images/${job.id}/thumbnail`);
    const originalFile = storedFiles(server.dataDir).length;
    expect(filesOf(job.id).length).toBe(2); // result + thumbnail

    // Another visitor cannot delete it (the 404 of a missing job).
    const stranger = await signedInVisitor(server);
    const refused = await stranger.fetch(`/api/images/${job.id}`, { method: 'DELETE' });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ code: 'NOT_FOUND', message: 'Image not found' });

    const res = await visitor.fetch(`/api/images/${job.id}`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(filesOf(job.id)).toEqual([]);
    expect(storedFiles(server.dataDir).length).toBe(originalFile - 3); // original, result, thumbnail
    for (const path of ['', '/original', '/result/0', '/download/0', '/thumbnail']) {
      expect((await visitor.fetch(`/api/images/${job.id}${path}`)).status, path).toBe(404);
    }
    expect((await list(visitor)).items.map((i) => i.id)).toEqual([keep.id]);
    expect((await visitor.fetch(`/api/images/${job.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('the retention sweep deletes the cached thumbnail with the other files, and the job leaves the list', async () => {
    const visitor = await signedInVisitor(server);
    const job = await run(visitor, { file: photo(), operation: 'denoising' });
    await visitor.fetch(`/api/images/${job.id}/thumbnail`);
    expect(filesOf(job.id).length).toBe(2);
    // A day and an hour later, as far as the sweep is concerned (other tests' jobs are swept too).
    await server.handle.retention.sweep(new Date(Date.now() + 25 * 3_600_000));
    expect(filesOf(job.id)).toEqual([]);
    expect((await list(visitor)).items).toEqual([]);
  });

  it('deletes all my jobs, and only mine', async () => {
    const visitor = await signedInVisitor(server);
    const other = await signedInVisitor(server);
    const theirs = await run(other, { file: photo(), operation: 'denoising' });
    const mine = [
      await run(visitor, { file: photo(), operation: 'denoising' }),
      await run(visitor, { file: photo(), operation: 'background-removal' }),
    ];
    const res = await visitor.fetch('/api/images', { method: 'DELETE' });
    expect(await res.json()).toEqual({ deleted: 2 });
    expect((await list(visitor)).items).toEqual([]);
    for (const job of mine) expect(filesOf(job.id)).toEqual([]);
    expect((await other.fetch(`/api/images/${theirs.id}/result/0`)).status).toBe(200);
  });

  it('a job deleted while it runs leaves no files behind when its engine finishes', async () => {
    const visitor = await signedInVisitor(server);
    const before = storedFiles(server.dataDir).length;
    const res = await visitor.submit({ file: photo(), operation: 'hdr-enhancement' });
    const { id } = (await res.json()) as { id: number };
    // Deleted once the engine is at work (it waits 1.5 s, then writes its result).
    for (let i = 0; i < 100; i++) {
      const job = (await (await visitor.fetch(`/api/images/${id}`)).json()) as { metadata: { stage?: string } };
      if (job.metadata.stage === 'waiting') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await visitor.fetch(`/api/images/${id}`, { method: 'DELETE' })).status).toBe(204);
    await new Promise((r) => setTimeout(r, 2500));
    expect(storedFiles(server.dataDir).length).toBe(before);
  });

  it('moves a guest’s jobs to the account at sign-in, where My images lists them', async () => {
    const visitor = server.visitor();
    const job = await run(visitor, { file: photo(), operation: 'face-enhancement' });
    expect((await list(visitor)).items.map((i) => i.id)).toEqual([job.id]);
    await signIn(visitor);
    expect((await list(visitor)).items.map((i) => i.id)).toEqual([job.id]);
  });

  it('chains: a job that names an earlier result gets exactly those bytes as its photo, and records its source', async () => {
    const visitor = await signedInVisitor(server);
    const first = await run(visitor, { file: photo('coffee.png'), operation: 'background-removal' });
    const firstResult = Buffer.from(await (await visitor.fetch(`/api/images/${first.id}/result/0`)).arrayBuffer());
    const second = await run(visitor, { source: String(first.id), operation: 'denoising' });
    expect(second.status).toBe('completed');
    expect(second.sourceImageId).toBe(first.id);
    const input = Buffer.from(await (await visitor.fetch(`/api/images/${second.id}/original`)).arrayBuffer());
    expect(input.equals(firstResult)).toBe(true);
    // The copy is the second job's own: deleting the first leaves it whole.
    await visitor.fetch(`/api/images/${first.id}`, { method: 'DELETE' });
    expect((await visitor.fetch(`/api/images/${second.id}/original`)).status).toBe(200);
    const after = (await (await visitor.fetch(`/api/images/${second.id}`)).json()) as ListItem;
    expect(after.sourceImageId).toBeNull();
  });

  it('suggests next steps from the result itself (of=result), once there is one', async () => {
    const visitor = await signedInVisitor(server);
    // The echo engine returns the 512 px astronaut: a face, and small enough to enlarge.
    const job = await run(visitor, { file: photo(), operation: 'background-removal' });
    const res = await visitor.fetch(`/api/images/${job.id}/recommendations?of=result`);
    expect(res.status).toBe(200);
    const ids = ((await res.json()) as { operationId: string }[]).map((r) => r.operationId);
    expect(ids).toContain('face-enhancement');
    const pending = (await (await visitor.submit({ file: photo(), operation: 'super-resolution' })).json()) as {
      id: number;
    };
    const early = await visitor.fetch(`/api/images/${pending.id}/recommendations?of=result`);
    expect([early.status, ((await early.json()) as { code: string }).code]).toEqual([409, 'RESULT_NOT_READY']);
    expect((await server.visitor().fetch(`/api/images/${job.id}/recommendations?of=result`)).status).toBe(404);
    await visitor.fetch(`/api/images/${pending.id}`, { method: 'DELETE' });
  });

  it('refuses a source that is not mine, not finished or not there, and a source with a file', async () => {
    const owner = await signedInVisitor(server);
    const job = await run(owner, { file: photo(), operation: 'background-removal' });
    const visitor = await signedInVisitor(server);
    const answer = async (v: Visitor, fields: Record<string, string | Blob>) => {
      const res = await v.submit({ operation: 'denoising', ...fields });
      return [res.status, ((await res.json()) as { code: string }).code];
    };
    expect(await answer(visitor, { source: String(job.id) })).toEqual([404, 'NOT_FOUND']);
    expect(await answer(owner, { source: String(job.id), sourceIndex: '3' })).toEqual([404, 'NOT_FOUND']);
    expect(await answer(owner, { source: 'abc' })).toEqual([400, 'INVALID_PARAMETER']);
    expect(await answer(owner, { source: String(job.id), file: photo() })).toEqual([400, 'TOO_MANY_FILES']);
    const pending = (await (await owner.submit({ file: photo(), operation: 'super-resolution' })).json()) as {
      id: number;
    };
    expect(await answer(owner, { source: String(pending.id) })).toEqual([409, 'RESULT_NOT_READY']);
    await owner.fetch(`/api/images/${pending.id}`, { method: 'DELETE' });
  });
});
