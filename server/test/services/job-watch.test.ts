/** JobWatch: however many status streams watch a job, each change is read once and handed to all of them. */
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { LocalJobChanges } from '../../src/adapters/job-events.js';
import type { ImageRow } from '../../src/db/schema.js';
import { JobWatch } from '../../src/services/job-watch.js';
import type { JobService } from '../../src/services/jobs.js';
import { imageRow } from '../support/image-row.js';

const settle = () => new Promise((r) => setTimeout(r, 10));

describe('JobWatch', () => {
  it('reads the row once per change for all its watchers, and stops listening when the last one leaves', async () => {
    let percent = 0;
    const find = vi.fn(async (id: number) => imageRow({ id, metadata: { stage: 'processing', percent } }));
    const jobs = { find, queuePosition: async () => undefined } as unknown as JobService;
    const changes = new LocalJobChanges();
    const watch = new JobWatch({ jobs, changes, log: {} as FastifyBaseLogger, refreshMs: 60_000 });
    const seen: [string, number][] = [];
    const leaveA = watch.watch(7, (row) => seen.push(['a', (row as ImageRow).metadata.percent as number]));
    const leaveB = watch.watch(7, (row) => seen.push(['b', (row as ImageRow).metadata.percent as number]));
    await settle();
    find.mockClear();
    seen.length = 0;

    percent = 40;
    changes.publish(7);
    await settle();
    expect(find).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([
      ['a', 40],
      ['b', 40],
    ]);

    leaveA();
    leaveB();
    expect(changes.listeners(7)).toBe(0);
  });
});
