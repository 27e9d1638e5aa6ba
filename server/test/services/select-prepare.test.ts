/**
 * Preparing a photo for Select object (services/select-prepare.ts) with the engine pool mocked (vi.fn()): one crop
 * per task in the quick lane; the crops beyond those the engine runs at once each wait for the server's spare time;
 * a visitor who leaves stops it.
 */
import { describe, expect, it, vi } from 'vitest';
import type { EnginePool } from '../../src/adapters/engine-pool.js';
import { prepareSelection } from '../../src/services/select-prepare.js';

const image = { bytes: Buffer.from('photo bytes'), width: 1920, height: 1920 };

function poolOf(events: string[], steps: { crops: number; atOnce: number }) {
  const runTask = vi.fn(async (_task: string, input: { params: Record<string, unknown> }) => {
    events.push(`step ${input.params.step}`);
    return { images: [], metadata: { ...steps, modelRuns: 1 } };
  });
  return { runTask } as unknown as EnginePool & { runTask: typeof runTask };
}

describe('prepareSelection', () => {
  it('runs the first crops at once and waits for spare time before each of the others', async () => {
    const events: string[] = [];
    const pool = poolOf(events, { crops: 4, atOnce: 2 });
    const spareTime = vi.fn(async () => {
      events.push('spare time');
    });
    const out = await prepareSelection(pool, 'object-removal', image, {
      timeoutMs: 1000,
      owner: 'u1',
      log: { error: vi.fn() },
      spareTime,
    });
    expect(events).toEqual(['step 0', 'step 1', 'spare time', 'step 2', 'spare time', 'step 3']);
    expect(out).toEqual({ crops: 4, modelRuns: 4 });
    const hints = pool.runTask.mock.calls.map(
      (c) => (c as unknown as [string, unknown, { hints: { lane: string } }])[2],
    );
    expect(hints.every((h) => h.hints.lane === 'quick')).toBe(true);
  });

  it('starts no further crop once the visitor has gone while it waited for spare time', async () => {
    const events: string[] = [];
    const pool = poolOf(events, { crops: 6, atOnce: 1 });
    const gone = new AbortController();
    const spareTime = vi.fn(async (signal?: AbortSignal) => {
      events.push('spare time');
      gone.abort();
      expect(signal?.aborted).toBe(true);
    });
    await prepareSelection(pool, 'object-removal', image, {
      timeoutMs: 1000,
      log: { error: vi.fn() },
      signal: gone.signal,
      spareTime,
    });
    expect(events).toEqual(['step 0', 'spare time']);
  });
});
