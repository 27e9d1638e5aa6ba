import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isRunning } from './processes.js';

/** Where originals and results live. Keys are relative paths such as `originals/<uuid>/file`. */
export interface Storage {
  readonly kind: string;
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** Deleting a key that does not exist is not an error. */
  delete(key: string): Promise<void>;
  /** True when a small object can be written and deleted right now. */
  ping(): Promise<boolean>;
  /** Bytes free for new files, where the storage can tell (a local disk); undefined otherwise. */
  freeBytes?(): Promise<number | undefined>;
  /** Removes what writes cut short by a crash left behind; returns how many. */
  sweepPartial?(): Promise<number>;
  /** The keys under `prefix` (e.g. `results/`), where the storage can list them cheaply (a local disk). */
  listKeys?(prefix: string): Promise<string[]>;
}

const TEMP_SUFFIX = '.tmp';

/**
 * Files under `<dataDir>/files`, written to a temp name and renamed so a reader never sees half a file. A failed
 * write (a full disk) removes its temp file; temp files of writers that died are swept at start.
 */
export class LocalStorage implements Storage {
  readonly kind = 'local';
  constructor(private readonly root: string) {}

  private resolve(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`Storage key escapes the root: ${key}`);
    return full;
  }

  async put(key: string, bytes: Buffer, _contentType?: string): Promise<void> {
    const full = this.resolve(key);
    await fs.mkdir(path.dirname(full), { recursive: true });
    // `<file>.<pid>.<random>.tmp`: the pid tells the start-up sweep whether its writer is still alive.
    const temp = `${full}.${process.pid}.${randomUUID().slice(0, 8)}${TEMP_SUFFIX}`;
    try {
      await fs.writeFile(temp, bytes);
      await fs.rename(temp, full);
    } catch (err) {
      await fs.rm(temp, { force: true }).catch(() => {});
      throw err;
    }
  }

  get(key: string): Promise<Buffer> {
    return fs.readFile(this.resolve(key));
  }

  async delete(key: string): Promise<void> {
    const full = this.resolve(key);
    await fs.rm(full, { force: true });
    // Remove the per-job folder once it is empty, so the sweep leaves no empty directories behind.
    await fs.rmdir(path.dirname(full)).catch(() => {});
  }

  async ping(): Promise<boolean> {
    const probe = path.join(this.root, `.health.${process.pid}.${randomUUID().slice(0, 8)}`);
    try {
      await fs.mkdir(this.root, { recursive: true });
      await fs.writeFile(probe, 'ok');
      return true;
    } catch {
      return false;
    } finally {
      await fs.rm(probe, { force: true }).catch(() => {});
    }
  }

  async freeBytes(): Promise<number | undefined> {
    try {
      await fs.mkdir(this.root, { recursive: true });
      const s = await fs.statfs(this.root);
      return s.bavail * s.bsize;
    } catch {
      return undefined;
    }
  }

  async listKeys(prefix: string): Promise<string[]> {
    const dir = this.resolve(prefix.replace(/\/$/, ''));
    let names: string[];
    try {
      names = await fs.readdir(dir, { recursive: true });
    } catch {
      return [];
    }
    const keys: string[] = [];
    for (const name of names) {
      if (name.endsWith(TEMP_SUFFIX)) continue;
      const full = path.join(dir, name);
      if ((await fs.stat(full).catch(() => undefined))?.isFile()) {
        keys.push(path.relative(this.root, full).split(path.sep).join('/'));
      }
    }
    return keys;
  }

  async sweepPartial(): Promise<number> {
    let names: string[];
    try {
      names = await fs.readdir(this.root, { recursive: true });
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      if (!name.endsWith(TEMP_SUFFIX)) continue;
      const pid = Number(/\.(\d+)\.[0-9a-f]+\.tmp$|\.(\d+)\.tmp$/.exec(name)?.slice(1).find(Boolean));
      if (pid && pid !== process.pid && isRunning(pid)) continue;
      await fs.rm(path.join(this.root, name), { force: true });
      removed++;
    }
    return removed;
  }
}
