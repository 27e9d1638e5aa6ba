/** PostgreSQL (DATABASE_URL): migrations when several processes start at once, and retention on local and S3 files. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/adapters/db.js';
import { S3Storage } from '../../src/adapters/s3-storage.js';
import { LocalStorage, type Storage } from '../../src/adapters/storage.js';
import { images } from '../../src/db/schema.js';
import { ImageRepository } from '../../src/repositories/images.js';
import { RetentionService } from '../../src/services/retention.js';
import { createTestDatabase, type S3StandIn, skipReason, startS3 } from './support.js';

const journal = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../../src/db/migrations/meta/_journal.json'), 'utf8'),
) as { entries: unknown[] };

describe.skipIf(skipReason)('PostgreSQL: migrations and retention', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let s3: S3StandIn;
  const handles: DatabaseHandle[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-pg-'));

  beforeAll(async () => {
    db = await createTestDatabase();
    s3 = await startS3();
  });
  afterAll(async () => {
    await Promise.all(handles.map((h) => h.close()));
    await s3?.close();
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the migrations once when four processes open a fresh database at the same moment', async () => {
    // Each open has its own pool, so these are four PostgreSQL sessions racing, as four processes would.
    const opened = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ databaseUrl: db.url, dataDir })));
    handles.push(...opened);
    for (const h of opened) {
      expect(h.kind).toBe('postgres');
      expect(await h.ping()).toBe(true);
    }
    const first = opened[0] as DatabaseHandle;
    const applied = await first.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect((applied as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(journal.entries.length);
    const [row] = await first.db.insert(images).values({ operation: 'denoising', ownerSession: 's' }).returning();
    expect(row?.status).toBe('pending');
    await first.db.delete(images);
  });

  for (const kind of ['local', 's3'] as const) {
    it(`retention sweep removes old files and rows from ${kind} storage, even with two sweeps at once`, async () => {
      const [one, two] = handles as [DatabaseHandle, DatabaseHandle];
      const storage: Storage =
        kind === 's3'
          ? new S3Storage({
              bucket: s3.env.S3_BUCKET as string,
              endpoint: s3.env.S3_ENDPOINT,
              region: 'us-east-1',
              accessKeyId: 'S3RVER',
              secretAccessKey: 'S3RVER',
              forcePathStyle: true,
            })
          : new LocalStorage(path.join(dataDir, 'files'));
      const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
      const make = async (i: number, created: Date, purged?: Date) => {
        const original = `originals/${kind}-${i}/file.png`;
        const result = `results/${kind}-${i}/0.png`;
        if (!purged) {
          await storage.put(original, Buffer.from(`o${i}`), 'image/png');
          await storage.put(result, Buffer.from(`r${i}`), 'image/png');
        }
        const [r] = await one.db
          .insert(images)
          .values({
            operation: 'denoising',
            status: 'completed',
            ownerSession: 's',
            originalKey: original,
            resultKeys: [result],
            createdAt: created,
            purgedAt: purged ?? null,
          })
          .returning();
        return r?.id as number;
      };
      // 130 expired (more than one sweep batch), 3 fresh, 2 long purged whose rows are due for deletion.
      const expired = await Promise.all(Array.from({ length: 130 }, (_, i) => make(i, hoursAgo(25))));
      const fresh = await Promise.all([200, 201, 202].map((i) => make(i, hoursAgo(1))));
      const old = await Promise.all([300, 301].map((i) => make(i, hoursAgo(24 * 8), hoursAgo(24 * 7))));

      const sweeper = (handle: DatabaseHandle) =>
        new RetentionService({ images: new ImageRepository(handle.db), storage, retentionHours: 24 });
      const results = await Promise.all([sweeper(one).sweep(), sweeper(two).sweep()]);
      // Each row claimed by exactly one sweep.
      expect(results.reduce((n, r) => n + r.purged, 0)).toBe(130);
      expect(results.reduce((n, r) => n + r.deleted, 0)).toBe(2);

      for (const id of expired) {
        const [r] = await one.db.select().from(images).where(eq(images.id, id));
        expect(r?.purgedAt).not.toBeNull();
        await expect(storage.get(r?.originalKey as string)).rejects.toThrow();
        await expect(storage.get(r?.resultKeys[0] as string)).rejects.toThrow();
      }
      for (const id of fresh) {
        const [r] = await one.db.select().from(images).where(eq(images.id, id));
        expect(r?.purgedAt).toBeNull();
        expect((await storage.get(r?.originalKey as string)).toString()).toMatch(/^o2/);
      }
      for (const id of old) expect(await one.db.select().from(images).where(eq(images.id, id))).toEqual([]);
      if (kind === 's3') {
        expect(await s3.keys()).toEqual(
          fresh.flatMap((_, i) => [`originals/s3-${200 + i}/file.png`, `results/s3-${200 + i}/0.png`]).sort(),
        );
        (storage as S3Storage).close();
      } else {
        const left = fs.readdirSync(path.join(dataDir, 'files'), { recursive: true, encoding: 'utf8' });
        expect(left.filter((f) => f.endsWith('.png')).sort()).toEqual(
          fresh.flatMap((_, i) => [`originals/local-${200 + i}/file.png`, `results/local-${200 + i}/0.png`]).sort(),
        );
      }
      await one.db.delete(images);
    });
  }
});
