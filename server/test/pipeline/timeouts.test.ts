/**
 * Timeouts in native code: super-resolution (onnxruntime) of a 1000x1000 photo at 4x runs far past a 5 s limit, ten
 * times in a row, against the real server in its own process. Ending a thread inside onnxruntime (before engines
 * ran in processes) used to abort the whole server by the third; an engine host ends alone, so the server's PID never changes and the next
 * job completes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEALTH_HEADERS, type ServerProcess, startServerProcess } from '../../../test-support/server-process.js';
import { esrganModelPath } from '../../src/engines/models/esrgan-model.js';
import { authTestEnv, emulatorReady, signIn } from '../support/auth.js';
import { blob, fixture, type Visitor, visitor } from '../support/server.js';

describe('timeouts in onnxruntime, against the server process', () => {
  let server: ServerProcess;
  let me: Visitor;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-timeouts-'));
  beforeAll(async () => {
    // Model preparation is not what this is about: the converted models (4x and 2x heads) are in the cache before
    // the server starts.
    esrganModelPath(4);
    esrganModelPath(2);
    await emulatorReady();
    server = await startServerProcess({
      ...authTestEnv(),
      DATA_DIR: dataDir,
      ENGINE_HOSTS: '1',
      ENGINE_PRELOAD: 'false',
      JOB_TIMEOUT_MS: '5000',
      DAILY_USES_PER_OPERATION: '20',
    });
    me = visitor(server.url);
    await signIn(me);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const upscale = async (photo: Buffer, scale: number) => {
    const res = await me.submit({ operation: 'super-resolution', scale: String(scale), file: blob(photo) });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };

  it('survives ten timeouts in a row with the same PID, and then completes a job', async () => {
    const pid = server.pid;
    const large = await sharp(fixture('astronaut.png')).resize(1000, 1000).png().toBuffer();
    for (let i = 0; i < 10; i++) {
      const id = await upscale(large, 4);
      const failed = await me.waitFor(id, 90_000);
      expect(failed, `timeout ${i + 1}`).toMatchObject({
        status: 'failed',
        metadata: { error: 'Processing timed out', errorCode: 'PROCESSING_TIMED_OUT' },
      });
      // It was stopped inside the upscaling (onnxruntime), not before it.
      expect((failed.metadata as { percent: number }).percent).toBeGreaterThanOrEqual(5);
      expect(server.alive(), `server alive after timeout ${i + 1}`).toBe(true);
    }
    const health = (await (await me.fetch('/api/health', { headers: HEALTH_HEADERS })).json()) as {
      engineHosts: { replaced: number };
    };
    expect(health.engineHosts.replaced).toBeGreaterThanOrEqual(10);

    const small = await sharp(fixture('astronaut.png')).resize(64, 64).png().toBuffer();
    const done = (await me.waitFor(await upscale(small, 2), 60_000)) as { status: string; processedUrl: string };
    expect(done.status).toBe('completed');
    const png = Buffer.from(await (await me.fetch(done.processedUrl)).arrayBuffer());
    expect(await sharp(png).metadata()).toMatchObject({ width: 128, height: 128 });
    expect(server.alive()).toBe(true);
    expect(server.child.pid).toBe(pid);
  }, 600_000);
});
