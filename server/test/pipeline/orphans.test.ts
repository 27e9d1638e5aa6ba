import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInVisitor } from '../support/auth.js';
import { blob, fixture, startTestServer, storedFiles, type TestServer, testEngine } from '../support/server.js';

/**
 * No file outlives the row that names it: a job whose second result cannot be written keeps neither, a job whose
 * row retention swept while it ran keeps no result, a full disk at the result is told as such, and result files
 * that no row names are removed at start.
 */
const overrides = {
  'image-segmentation': testEngine('pair'),
  'pencil-sketch': testEngine('echo'),
  'hdr-enhancement': testEngine('slow-echo'),
};
const photo = () => blob(fixture('astronaut.png'), 'image/png');
const resultFiles = (server: TestServer, id: number) =>
  storedFiles(server.dataDir).filter((f) => f.includes(`${path.sep}results${path.sep}${id}${path.sep}`));
/** A write refused by a full file system, as fs reports it. */
const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('orphaned result files', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-orphans-'));
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      dataDir,
      localEngineOverrides: overrides,
      env: { DAILY_USES_PER_OPERATION: '50' },
    });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function submit(operation: string) {
    const v = await signedInVisitor(server);
    const res = await v.submit({ operation, file: photo() });
    expect(res.status).toBe(201);
    return { v, id: ((await res.json()) as { id: number }).id };
  }

  it('a two-result job that cannot write its second result keeps neither, and says storage is full', async () => {
    const storage = server.handle.storage;
    const put = storage.put.bind(storage);
    storage.put = async (key, bytes, type) => {
      if (/^results\/\d+\/1\.png$/.test(key)) {
        // The first result is on disk by the time the second fails.
        await new Promise((r) => setTimeout(r, 200));
        throw enospc();
      }
      return put(key, bytes, type);
    };
    try {
      const { v, id } = await submit('image-segmentation');
      const done = (await v.waitFor(id)) as { status: string; metadata: { error: string; errorCode: string } };
      expect(done.status).toBe('failed');
      expect(done.metadata).toMatchObject({ error: 'The server is out of storage space', errorCode: 'OUT_OF_STORAGE' });
      expect(resultFiles(server, id)).toEqual([]);
    } finally {
      storage.put = put;
    }
    // With room again, the same job completes with both results.
    const { v, id } = await submit('image-segmentation');
    expect(((await v.waitFor(id)) as { status: string }).status).toBe('completed');
    expect(resultFiles(server, id)).toHaveLength(2);
  });

  it('a job whose row retention swept while it ran keeps no result, and ends expired', async () => {
    const { v, id } = await submit('hdr-enhancement');
    // The slow engine is running (its photo read); retention's time comes.
    for (let i = 0; i < 200; i++) {
      const view = (await (await v.fetch(`/api/images/${id}`)).json()) as { metadata: { stage?: string } };
      if (view.metadata.stage === 'waiting') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const { purged } = await server.handle.retention.sweep(new Date(Date.now() + 25 * 3_600_000));
    expect(purged).toBeGreaterThan(0);
    let row = await server.handle.jobs.find(id);
    for (let i = 0; i < 200 && row?.status === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      row = await server.handle.jobs.find(id);
    }
    expect(row?.status).toBe('failed');
    expect(row?.metadata.errorCode).toBe('RESULT_EXPIRED');
    expect(row?.resultKeys).toEqual([]);
    expect(resultFiles(server, id)).toEqual([]);
  });

  it('removes result files no row names at start, and keeps those of completed jobs', async () => {
    const { v, id } = await submit('pencil-sketch');
    expect(((await v.waitFor(id)) as { status: string }).status).toBe('completed');
    const files = path.join(dataDir, 'files');
    // A crash between writing results and recording them; a row deleted while its results were written.
    const strays = [path.join(files, `results/${id}/3.png`), path.join(files, 'results/2000000000/0.png')];
    for (const f of strays) {
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, 'stray');
    }
    await server.close();
    server = await startTestServer({ dataDir, localEngineOverrides: overrides });
    for (const f of strays) expect(fs.existsSync(f), f).toBe(false);
    expect(fs.existsSync(path.join(files, `results/${id}/0.png`))).toBe(true);
    expect((await server.handle.jobs.find(id))?.resultKeys).toEqual([`results/${id}/0.png`]);
  });
});
