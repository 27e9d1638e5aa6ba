import { LRUCache } from 'lru-cache';
import type { CheckedImage } from './uploads.js';
import { photoKey } from './uploads.js';

/**
 * The photos Select object was opened on, held by this API process so that every later click sends coordinates
 * only (docs/select-object.md). Each visitor sees only the photos they sent. A photo is dropped when nobody has
 * selected on it for `ttlMs`, or the least recently used first when all of them pass `maxBytes`; a click on a
 * dropped photo is refused with SELECT_PHOTO_GONE, and the page sends the photo again.
 */
export class PreparedPhotos {
  private readonly photos: LRUCache<string, CheckedImage>;

  constructor(ttlMs = 30 * 60_000, maxBytes = 512 * 1024 * 1024) {
    this.photos = new LRUCache<string, CheckedImage>({
      ttl: ttlMs,
      updateAgeOnGet: true,
      maxSize: maxBytes,
      sizeCalculation: (image) => Math.max(1, image.bytes.length),
    });
  }

  /** Keeps the photo for its owner; answers its id. */
  put(owner: string, image: CheckedImage): string {
    const photo = photoKey(image.bytes);
    this.photos.set(`${owner}/${photo}`, image);
    return photo;
  }

  get(owner: string, photo: string): CheckedImage | undefined {
    return this.photos.get(`${owner}/${photo}`);
  }
}
