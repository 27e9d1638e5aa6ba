import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../../src/adapters/storage.js';
import { images } from '../../src/db/schema.js';
import {
  blob,
  fixture,
  HEALTH_HEADERS,
  startTestServer,
  storedFiles,
  type TestServer,
  testEngine,
} from '../support/server.js';

/**
 * Real failing writes: a tiny tmpfs mounted under the storage root fills up and the kernel answers ENOSPC, as a
 * full disk would. Needs permission to mount (root, as in the test container); elsewhere the suite is skipped.
 */
function mountTmpfs(dir: string, size: string): boolean {
  fs.mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const umount = (dir: string) => execFileSync('umount', [dir], { stdio: 'ignore' });

const canMount = (() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-mount-probe-'));
  const ok = mountTmpfs(dir, '64k');
  if (ok) umount(dir);
  fs.rmdirSync(dir);
  return ok;
})();

/** A process id no process has: above Linux's largest pid_max. */
const DEAD_PID = 4_194_305;

/** Fills the file system holding `dir` until `leaveBytes` (about) remain; returns the filler's path. */
function fill(dir: string, leaveBytes: number): string {
  const filler = path.join(dir, 'filler.bin');
  const fd = fs.openSync(filler, 'a');
  try {
    const chunk = Buffer.alloc(4096, 7);
    for (;;) {
      const free = fs.statfsSync(dir);
      if (free.bavail * free.bsize <= leaveBytes) break;
      fs.writeSync(fd, chunk);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
  return filler;
}

describe.skipIf(!canMount)('storage faults on a full file system', () => {
  it('a write that runs out of space leaves no partial file', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-full-'));
    expect(mountTmpfs(root, '256k')).toBe(true);
    try {
      const storage = new LocalStorage(root);
      await expect(
        storage.put('originals/a/file.png', Buffer.alloc(1024 * 1024, 1), 'image/png'),
      ).rejects.toMatchObject({ code: 'ENOSPC' });
      const left = fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
      expect(left).toEqual([]);
      // What fits is written whole.
      await storage.put('originals/a/file.png', Buffer.alloc(1000, 1), 'image/png');
      expect(fs.readFileSync(path.join(root, 'originals/a/file.png'))).toHaveLength(1000);
    } finally {
      umount(root);
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('sweeps temp files of dead writers at start and keeps those of live ones', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-sweep-'));
    const dir = path.join(root, 'originals/x');
    fs.mkdirSync(dir, { recursive: true });
    const dead = path.join(dir, `file.png.${DEAD_PID}.1a2b3c4d.tmp`);
    const deadOld = path.join(dir, `file.jpg.${DEAD_PID}.tmp`);
    const live = path.join(dir, `file.webp.${process.ppid}.1a2b3c4d.tmp`);
    const whole = path.join(dir, 'file.png');
    for (const f of [dead, deadOld, live, whole]) fs.writeFileSync(f, 'x');
    expect(await new LocalStorage(root).sweepPartial()).toBe(2);
    expect(fs.readdirSync(dir).sort()).toEqual([path.basename(whole), path.basename(live)].sort());
    fs.rmSync(root, { recursive: true, force: true });
  });

  describe('a server whose storage fills up', () => {
    let server: TestServer;
    let files: string;
    beforeAll(async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-test-'));
      files = path.join(dataDir, 'files');
      expect(mountTmpfs(files, '2m')).toBe(true);
      // A write cut short by a crash, before this start.
      fs.mkdirSync(path.join(files, 'originals/old'), { recursive: true });
      fs.writeFileSync(path.join(files, `originals/old/file.png.${DEAD_PID}.0badf00d.tmp`), 'half');
      server = await startTestServer({
        dataDir,
        env: { STORAGE_MIN_FREE_MB: '1' },
        localEngineOverrides: { 'face-enhancement': testEngine('echo') },
      });
    });
    afterAll(async () => {
      await server?.close();
      umount(files);
      fs.rmSync(path.dirname(files), { recursive: true, force: true });
    });

    async function health() {
      const res = await server.visitor().fetch('/api/health', { headers: HEALTH_HEADERS });
      const body = (await res.json()) as { status: string; storage: Record<string, unknown> };
      return { status: res.status, body };
    }

    it('removed the partial file at start, and is healthy with room to spare', async () => {
      expect(storedFiles(server.dataDir)).toEqual([]);
      const { status, body } = await health();
      expect(status).toBe(200);
      expect(body.storage).toMatchObject({ ok: true, writable: true, kind: 'local', minFreeBytes: 1024 * 1024 });
    });

    it('reports low free space as not ok, and a submission that no longer fits leaves nothing behind', async () => {
      const filler = fill(files, 300 * 1024);
      const { status, body } = await health();
      expect(status).toBe(503);
      expect(body.status).toBe('degraded');
      expect(body.storage).toMatchObject({ ok: false, writable: true, reason: 'Less than 1 MB free' });

      const [before] = await server.handle.database.db.select({ n: count() }).from(images);
      const photo = fixture('astronaut.png'); // 790 KB: its write runs out of space half way
      const res = await server.visitor().submit({ operation: 'face-enhancement', file: blob(photo) });
      expect(res.status).toBe(507);
      expect(await res.json()).toEqual({ code: 'OUT_OF_STORAGE', message: 'The server is out of storage space' });
      expect(storedFiles(server.dataDir)).toEqual([filler]);
      const [after] = await server.handle.database.db.select({ n: count() }).from(images);
      expect(after?.n).toBe(before?.n);
      fs.rmSync(filler);
    });

    it('reports storage that cannot be written as not ok, and recovers once there is room', async () => {
      const filler = fill(files, 0);
      const { status, body } = await health();
      expect(status).toBe(503);
      expect(body.storage).toMatchObject({ ok: false, writable: false, reason: 'Files cannot be written' });
      fs.rmSync(filler);
      expect((await health()).status).toBe(200);
    });
  });
});
