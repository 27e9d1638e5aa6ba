/**
 * Select object's per-photo memory, kept in the engine host that computes selections: what the model computed for a
 * photo (its embedding, under a name), so that the following clicks on that photo reuse it instead of running the
 * model again.
 * A photo's answers are dropped when it has not been clicked for `ttlMs` (it left the editor), when the server
 * says the photo was deleted or expired (`forget`), and the least recently used first when over `maxBytes`.
 */
export class SelectionCache {
  private readonly photos = new Map<string, { maps: Map<string, Buffer>; bytes: number; usedAt: number }>();
  private bytes = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(photo: string, name: string): Buffer | undefined {
    this.expire();
    const entry = this.photos.get(photo);
    const map = entry?.maps.get(name);
    if (entry && map) {
      entry.usedAt = this.now();
      // Most recently used last, for the eviction order.
      this.photos.delete(photo);
      this.photos.set(photo, entry);
    }
    return map;
  }

  set(photo: string, name: string, map: Buffer): void {
    if (map.length > this.maxBytes) return;
    let entry = this.photos.get(photo);
    if (!entry) {
      entry = { maps: new Map(), bytes: 0, usedAt: this.now() };
      this.photos.set(photo, entry);
    }
    const old = entry.maps.get(name);
    if (old) {
      entry.bytes -= old.length;
      this.bytes -= old.length;
    }
    entry.maps.set(name, map);
    entry.bytes += map.length;
    this.bytes += map.length;
    entry.usedAt = this.now();
    for (const [key, e] of this.photos) {
      if (this.bytes <= this.maxBytes || e === entry) break;
      this.drop(key);
    }
  }

  /** Drops everything known about a photo (deleted, or expired with its job). */
  forget(photo: string): void {
    this.drop(photo);
  }

  has(photo: string): boolean {
    this.expire();
    return this.photos.has(photo);
  }

  clear(): void {
    this.photos.clear();
    this.bytes = 0;
  }

  private drop(photo: string): void {
    const entry = this.photos.get(photo);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.photos.delete(photo);
  }

  private expire(): void {
    const cutoff = this.now() - this.ttlMs;
    for (const [key, e] of this.photos) if (e.usedAt < cutoff) this.drop(key);
  }
}
