/** The S3 adapter against an in-process S3 stand-in (s3rver): needs no outside service, so it always runs. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../../src/adapters/s3-storage.js';
import { loadScaleOutConfig } from '../../src/config-scale-out.js';
import { type S3StandIn, startS3 } from './support.js';

describe('S3 storage', () => {
  let s3: S3StandIn;
  let storage: S3Storage;

  beforeAll(async () => {
    s3 = await startS3();
    const config = loadScaleOutConfig(s3.env, { workerThreads: 1 }).s3;
    if (!config) throw new Error('S3_BUCKET did not select S3');
    storage = new S3Storage(config);
  });
  afterAll(async () => {
    storage?.close();
    await s3?.close();
  });

  it('reads config: path style follows S3_ENDPOINT unless set, credentials come in pairs', () => {
    expect(loadScaleOutConfig({ S3_BUCKET: 'b' }, { workerThreads: 1 }).s3).toMatchObject({
      bucket: 'b',
      region: 'us-east-1',
      forcePathStyle: false,
    });
    expect(
      loadScaleOutConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'http://minio:9000' }, { workerThreads: 1 }).s3,
    ).toMatchObject({ forcePathStyle: true });
    expect(loadScaleOutConfig({}, { workerThreads: 1 }).s3).toBeUndefined();
    expect(() => new S3Storage({ bucket: 'b', region: 'x', forcePathStyle: true, accessKeyId: 'only-id' })).toThrow(
      /S3_SECRET_ACCESS_KEY/,
    );
  });

  it('round-trips bytes exactly, from one byte to several megabytes', async () => {
    const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const cases: [string, Buffer][] = [
      ['originals/a/file.png', Buffer.from([0])],
      ['originals/b/file.jpg', every],
      ['results/1/0.png', randomBytes(1024 * 1024 + 7)],
      ['results/2/0.png', randomBytes(6 * 1024 * 1024)],
    ];
    for (const [key, bytes] of cases) await storage.put(key, bytes, 'image/png');
    for (const [key, bytes] of cases) {
      const back = await storage.get(key);
      expect(back.length, key).toBe(bytes.length);
      expect(back.equals(bytes), key).toBe(true);
    }
    expect(await s3.keys()).toEqual(cases.map(([k]) => k).sort());
  });

  it('overwrites a key in place (a retried job writes its one result again)', async () => {
    await storage.put('results/3/0.png', Buffer.from('first'), 'image/png');
    await storage.put('results/3/0.png', Buffer.from('second'), 'image/png');
    expect((await storage.get('results/3/0.png')).toString()).toBe('second');
    expect((await s3.keys()).filter((k) => k.startsWith('results/3/'))).toEqual(['results/3/0.png']);
  });

  it('deletes, and deleting a missing key is not an error', async () => {
    await storage.put('originals/c/file.png', Buffer.from('x'), 'image/png');
    await storage.delete('originals/c/file.png');
    await storage.delete('originals/c/file.png');
    await storage.delete('never/was/here.png');
    await expect(storage.get('originals/c/file.png')).rejects.toThrow();
    expect(await s3.keys()).not.toContain('originals/c/file.png');
  });

  it('pings the bucket, and reports a missing bucket as down', async () => {
    expect(await storage.ping()).toBe(true);
    const config = loadScaleOutConfig({ ...s3.env, S3_BUCKET: 'no-such-bucket' }, { workerThreads: 1 }).s3;
    const missing = new S3Storage(config as NonNullable<typeof config>);
    expect(await missing.ping()).toBe(false);
    missing.close();
  });
});
