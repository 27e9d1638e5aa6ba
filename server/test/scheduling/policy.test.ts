/**
 * The scheduling policy (adapters/scheduling.ts) and the in-process queue that follows it: quick work is never stuck
 * behind another visitor's long job, each visitor's own jobs keep their order, and a long job is not starved.
 */
import { describe, expect, it } from 'vitest';
import { InProcessQueue } from '../../src/adapters/queue.js';
import { pickNext, positionOf, startOrder, type Waiting } from '../../src/adapters/scheduling.js';

const work = (owner: string, lane: 'quick' | 'heavy', expectedMs: number, since: number): Waiting => ({
  owner,
  lane,
  expectedMs,
  since,
});

describe('scheduling policy', () => {
  it('starts a short job before a long one that arrived a moment earlier', () => {
    const long = work('a', 'heavy', 20_000, 0);
    const short = work('b', 'quick', 100, 1000);
    expect(startOrder([long, short])).toEqual([short, long]);
  });

  it('keeps a visitor’s own jobs in their order, even a short one behind their long one', () => {
    const long = work('a', 'heavy', 20_000, 0);
    const ownShort = work('a', 'quick', 100, 1000);
    const other = work('b', 'heavy', 5000, 2000);
    expect(startOrder([long, ownShort, other])).toEqual([other, long, ownShort]);
  });

  it('does not starve a long job: work arriving long after it goes after it', () => {
    const long = work('a', 'heavy', 20_000, 0);
    const late = work('b', 'quick', 100, 30_000);
    expect(startOrder([long, late])).toEqual([long, late]);
  });

  it('gives a quick slot quick work only; a heavy slot takes either', () => {
    const long = work('a', 'heavy', 20_000, 0);
    expect(pickNext([long], 'quick')).toBe(-1);
    expect(pickNext([long], 'heavy')).toBe(0);
  });

  it('counts a job’s position among the work of its own lane', () => {
    const longs = [work('a', 'heavy', 20_000, 0), work('c', 'heavy', 20_000, 10)];
    const short = work('b', 'quick', 100, 20);
    const all = [...longs, short];
    expect(positionOf(all, short)).toBe(1);
    expect(positionOf(all, longs[1] as Waiting)).toBe(2);
  });
});

describe('in-process queue with lanes', () => {
  it('hands a short job to the quick slot while the heavy slot runs a long one; order follows the policy', async () => {
    const hints: Record<number, Omit<Waiting, 'since'>> = {
      1: { owner: 'a', lane: 'heavy', expectedMs: 20_000 },
      2: { owner: 'a', lane: 'heavy', expectedMs: 20_000 },
      3: { owner: 'b', lane: 'quick', expectedMs: 100 },
      4: { owner: 'c', lane: 'quick', expectedMs: 100 },
    };
    const started: number[] = [];
    const finish = new Map<number, () => void>();
    const queue = new InProcessQueue({ heavy: 1, quick: 1 }, async (id) => hints[id] as Waiting);
    queue.consume({
      run: (id) => {
        started.push(id);
        return new Promise<void>((resolve) => finish.set(id, resolve));
      },
    });
    for (const id of [1, 2, 3, 4]) await queue.enqueue(id);
    // 1 takes the heavy slot, 3 the quick one; 4 is next in the quick lane, 2 in the heavy one.
    expect(started).toEqual([1, 3]);
    expect(await queue.position(4)).toBe(1);
    expect(await queue.position(2)).toBe(1);
    finish.get(3)?.();
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([1, 3, 4]);
    finish.get(4)?.();
    finish.get(1)?.();
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([1, 3, 4, 2]);
    finish.get(2)?.();
    await queue.close();
  });
});

describe('in-process queue: idle', () => {
  it('answers once no job has been in hand for a moment, after maxMs, or on abort', async () => {
    const finish = new Map<number, () => void>();
    const queue = new InProcessQueue({ heavy: 1, quick: 0 });
    queue.consume({ run: (id) => new Promise<void>((resolve) => finish.set(id, resolve)) });
    const settled = (p: Promise<void>, ms = 20) =>
      Promise.race([p.then(() => true), new Promise((r) => setTimeout(r, ms, false))]);
    // No job yet: at once.
    expect(await settled(queue.idle(60_000))).toBe(true);

    await queue.enqueue(1);
    await queue.enqueue(2);
    const idle = queue.idle(60_000);
    expect(await settled(idle)).toBe(false);
    finish.get(1)?.();
    // Job 2 starts: still in hand.
    expect(await settled(idle)).toBe(false);
    expect(await settled(queue.idle(10))).toBe(true);
    const gone = new AbortController();
    const left = queue.idle(60_000, gone.signal);
    gone.abort();
    expect(await settled(left)).toBe(true);
    finish.get(2)?.();
    // Empty, but a next job may follow at once: not yet...
    expect(await settled(idle, 100)).toBe(false);
    // ...and a job arriving within the moment starts the wait again.
    await queue.enqueue(3);
    finish.get(3)?.();
    const since = Date.now();
    expect(await settled(idle, 1_000)).toBe(true);
    expect(Date.now() - since).toBeGreaterThanOrEqual(240);
    await queue.close();
  });
});
