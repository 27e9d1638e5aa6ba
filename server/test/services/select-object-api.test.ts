/**
 * The Select object service (services/select-object-api.ts) with the engine pool mocked (vi.fn()): the prompt a
 * visitor's click or box becomes, the task the pool is asked to run, and what the visitor is told when it fails.
 */
import { AppError, errorMessage, type SelectOnPrepared } from '@ai-editor/core';
import { describe, expect, it, vi } from 'vitest';
import { EngineFailure, type EnginePool } from '../../src/adapters/engine-pool.js';
import { checkSelection, parsePrompt, SELECT_TASK, selectObjectMask } from '../../src/services/select-object-api.js';
import { photoKey } from '../../src/services/uploads.js';

const size = { width: 200, height: 100 };
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof AppError ? err.code : err;
  }
  return 'returned';
};

describe('parsePrompt', () => {
  it('reads a click inside the photo (the far edge is its last pixel) and a box cut to the photo', () => {
    expect(parsePrompt({ x: '10', y: '20.5' }, size)).toEqual({ points: [{ x: 10, y: 20.5, label: 1 }] });
    expect(parsePrompt({ x: '200', y: '100' }, size)).toEqual({ points: [{ x: 199, y: 99, label: 1 }] });
    expect(parsePrompt({ x0: '-20', y0: '10', x1: '50', y1: '300' }, size)).toEqual({
      points: [],
      box: { x0: 0, y0: 10, x1: 50, y1: 100 },
    });
  });

  it('refuses anything else with SELECT_PROMPT_INVALID', () => {
    const refused: Record<string, string>[] = [
      {},
      { x: '201', y: '5' },
      { x: 'ten', y: '5' },
      { x: '5' },
      { x: '5', y: '5', x0: '1', y0: '1', x1: '50', y1: '50' },
      { x0: '1', y0: '1', x1: '4', y1: '50' },
      { x0: '300', y0: '1', x1: '400', y1: '50' },
    ];
    for (const fields of refused) {
      expect(
        codeOf(() => parsePrompt(fields, size)),
        JSON.stringify(fields),
      ).toBe('SELECT_PROMPT_INVALID');
    }
  });
});

describe('checkSelection', () => {
  const body = (b: Partial<SelectOnPrepared>): SelectOnPrepared => ({
    operation: 'object-removal',
    photo: 'ab'.repeat(16),
    points: [],
    level: 0,
    crop: false,
    ...b,
  });

  it('takes a click with points added and taken away, a step larger, or a box cut to the photo', () => {
    const points = [
      { x: 10, y: 10, label: 1 as const },
      { x: 200, y: 100, label: 0 as const },
    ];
    expect(checkSelection(body({ points, level: 1 }), size)).toEqual({
      points: [points[0], { x: 199, y: 99, label: 0 }],
      box: undefined,
      level: 1,
    });
    expect(checkSelection(body({ box: { x0: -5, y0: 0, x1: 50, y1: 500 } }), size)).toMatchObject({
      box: { x0: 0, y0: 0, x1: 50, y1: 100 },
    });
  });

  it('refuses a point outside the photo, a box with nothing on the photo, or only a point taking away', () => {
    for (const b of [
      body({}),
      body({ points: [{ x: 201, y: 5, label: 1 }] }),
      body({ points: [{ x: 5, y: 5, label: 0 }] }),
      body({ box: { x0: 300, y0: 1, x1: 400, y1: 50 } }),
    ]) {
      expect(
        codeOf(() => checkSelection(b, size)),
        JSON.stringify(b),
      ).toBe('SELECT_PROMPT_INVALID');
    }
  });
});

describe('selectObjectMask', () => {
  const image = { bytes: Buffer.from('photo bytes'), ...size };
  const prompt = { points: [{ x: 5, y: 5, label: 1 as const }], level: 1 };
  const opts = () => ({ timeoutMs: 1000, owner: 'u1', log: { error: vi.fn() } });

  it('runs the selection task on the quick lane with the photo, its key and the tool it is for', async () => {
    const runTask = vi.fn(async () => ({
      images: [Buffer.from('png')],
      metadata: { selectedShare: 0.2, box: '10,20,30,40', level: 1, smaller: 2, larger: 0, computed: false },
    }));
    const pool = { runTask } as unknown as EnginePool;
    expect(await selectObjectMask(pool, 'object-removal', image, prompt, opts())).toEqual({
      png: Buffer.from('png'),
      box: [0, 0, size.width, size.height],
      level: 1,
      smaller: 2,
      larger: 0,
      computed: false,
    });
    expect(runTask).toHaveBeenCalledWith(
      SELECT_TASK,
      {
        forOperation: 'object-removal',
        image: image.bytes,
        params: { kind: 'select', points: '5,5,1', level: 1, photo: photoKey(image.bytes), crop: false },
      },
      expect.objectContaining({ timeoutMs: 1000, hints: expect.objectContaining({ lane: 'quick', owner: 'u1' }) }),
    );
    // Asked for the selection's box alone, the answer says where that box is.
    const cropped = await selectObjectMask(pool, 'object-removal', image, prompt, { ...opts(), crop: true });
    expect(cropped.box).toEqual([10, 20, 30, 40]);
    expect(runTask).toHaveBeenLastCalledWith(
      SELECT_TASK,
      expect.objectContaining({ params: expect.objectContaining({ crop: true }) }),
      expect.anything(),
    );
  });

  it('sends a prepared photo’s click without the photo, and the photo when the host no longer keeps it', async () => {
    const answer = { images: [Buffer.from('png')], metadata: { selectedShare: 0.2 } };
    const sent: Buffer[] = [];
    // The host keeps the photo once it has been sent it.
    let kept = false;
    const runTask = vi.fn(async (_task: string, input: { image: Buffer; params: { photo?: string } }) => {
      expect(input.params.photo).toBe(photoKey(image.bytes));
      sent.push(input.image);
      if (!input.image.length && !kept) throw new EngineFailure('gone', 'engine', 'SELECT_PHOTO_GONE');
      kept = true;
      return answer;
    });
    const pool = { runTask } as unknown as EnginePool;
    const prepared = { ...opts(), prepared: photoKey(image.bytes) };
    expect(await selectObjectMask(pool, 'object-removal', image, prompt, prepared)).toMatchObject({
      png: answer.images[0],
    });
    expect(sent).toEqual([Buffer.alloc(0), image.bytes]);
    // A host that keeps it answers at once.
    sent.length = 0;
    await selectObjectMask(pool, 'object-removal', image, prompt, prepared);
    expect(sent).toEqual([Buffer.alloc(0)]);
  });

  it('answers NOTHING_SELECTED for an empty selection, SELECT_UNAVAILABLE where no engines run or the model is missing', async () => {
    const empty = { runTask: async () => ({ images: [Buffer.from('png')], metadata: { selectedShare: 0 } }) };
    await expect(
      selectObjectMask(empty as unknown as EnginePool, 'object-removal', image, prompt, opts()),
    ).rejects.toMatchObject({ code: 'NOTHING_SELECTED', message: errorMessage('NOTHING_SELECTED') });
    await expect(selectObjectMask(undefined, 'object-removal', image, prompt, opts())).rejects.toMatchObject({
      code: 'SELECT_UNAVAILABLE',
    });
    // The model's files missing: the tool is unavailable, and no task is run.
    const runTask = vi.fn();
    await expect(
      selectObjectMask({ runTask } as unknown as EnginePool, 'object-removal', image, prompt, {
        ...opts(),
        modelPresent: () => false,
      }),
    ).rejects.toMatchObject({ code: 'SELECT_UNAVAILABLE' });
    expect(runTask).not.toHaveBeenCalled();
  });

  it('tells the visitor why the task failed: an ended host by its cause, a fault as ENGINE_FAILED logged once', async () => {
    const timedOut = { runTask: async () => Promise.reject(new EngineFailure('timeout', 'timeout')) };
    await expect(
      selectObjectMask(timedOut as unknown as EnginePool, 'object-removal', image, prompt, opts()),
    ).rejects.toMatchObject({ code: 'PROCESSING_TIMED_OUT' });
    const faulty = { runTask: async () => Promise.reject(new TypeError('x is undefined')) };
    const o = opts();
    const err = await selectObjectMask(faulty as unknown as EnginePool, 'image-inpainting', image, prompt, o).catch(
      (e) => e,
    );
    expect(err).toMatchObject({ code: 'ENGINE_FAILED', message: errorMessage('ENGINE_FAILED') });
    expect(err.message).not.toContain('x is undefined');
    expect(o.log.error).toHaveBeenCalledTimes(1);
    expect(o.log.error.mock.calls[0]?.[0]).toMatchObject({ task: SELECT_TASK, operation: 'image-inpainting' });
  });
});
