import fs from 'node:fs/promises';
import path from 'node:path';

/** Where originals and results live. Keys are relative paths such as `originals/<uuid>/file`. */
export interface Storage {
  readonly kind: string;
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** Deleting a key that does not exist is not an error. */
  delete(key: string): Promise<void>;
  ping(): Promise<boolean>;
}

/** Files under `<dataDir>/files`, written to a temp name and renamed so a reader never sees half a file. */
export class LocalStorage implements Storage {
  readonly kind = 'local';
  constructor(private readonly root: string) {}

  private resolve(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`Storage key escapes the root: ${key}`);
    return full;
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const full = this.resolve(key);
    await fs.mkdir(path.dirname(full), { recursive: true });
    const temp = `${full}.${process.pid}.tmp`;
    await fs.writeFile(temp, bytes);
    await fs.rename(temp, full);
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
    try {
      await fs.mkdir(this.root, { recursive: true });
      await fs.access(this.root, fs.constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }
}
