import { describe, expect, it } from 'vitest';
import { SelectionCache } from '../../src/engines/select/cache.js';

describe('Select object’s per-photo cache', () => {
  it('keeps a photo’s answers until it is forgotten, unused for the TTL, or pushed out by newer photos', () => {
    let now = 0;
    const cache = new SelectionCache(1000, 300, () => now);
    cache.set('p1', 'a', Buffer.alloc(100));
    cache.set('p1', 'b', Buffer.alloc(100));
    expect(cache.get('p1', 'a')?.length).toBe(100);
    cache.forget('p1');
    expect(cache.get('p1', 'a')).toBeUndefined();

    cache.set('p2', 'a', Buffer.alloc(100));
    now = 900;
    expect(cache.get('p2', 'a')).toBeDefined();
    now = 1800;
    expect(cache.get('p2', 'a')).toBeDefined(); // used at 900: still within the TTL
    now = 2900;
    expect(cache.has('p2')).toBe(false);

    cache.set('p3', 'a', Buffer.alloc(150));
    cache.set('p4', 'a', Buffer.alloc(150));
    cache.get('p3', 'a'); // p3 used last: p4 goes first
    cache.set('p5', 'a', Buffer.alloc(150));
    expect([cache.has('p3'), cache.has('p4'), cache.has('p5')]).toEqual([true, false, true]);
  });
});
