/** The job's progress as the database hears it (services/job-progress.ts): coalesced, never losing the last. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Progress } from '../../src/engines/types.js';
import { coalesceProgress } from '../../src/services/job-progress.js';

describe('coalesceProgress', () => {
  afterEach(() => vi.useRealTimers());

  it('saves a new stage at once, a burst of percentages once per interval, and the latest report last', () => {
    vi.useFakeTimers();
    const saved: Progress[] = [];
    const report = coalesceProgress((p) => saved.push(p), 250);
    report({ stage: 'loading' });
    report({ stage: 'working', percent: 1 });
    expect(saved).toEqual([{ stage: 'loading' }, { stage: 'working', percent: 1 }]);
    for (let percent = 2; percent <= 40; percent++) report({ stage: 'working', percent });
    expect(saved).toHaveLength(2);
    vi.advanceTimersByTime(250);
    expect(saved).toHaveLength(3);
    expect(saved[2]).toEqual({ stage: 'working', percent: 40 });
    // Nothing new: no write.
    vi.advanceTimersByTime(1000);
    expect(saved).toHaveLength(3);
    // A stage change does not wait for the interval.
    report({ stage: 'working', percent: 41 });
    report({ stage: 'saving' });
    expect(saved.at(-1)).toEqual({ stage: 'saving' });
  });
});
