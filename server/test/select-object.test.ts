import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coverage, iou, type SelectionCase, selectionCases } from '../../test-support/selection-cases.js';
import { growSelection } from '../src/engines/select/select-object.js';
import { signedInVisitor } from './support/auth.js';
import { blob, fixture, startTestServer, type TestServer, testEngine, type Visitor } from './support/server.js';

/**
 * POST /api/select-object through the real server: ISNet runs in an engine host of the pool. The truth is an
 * object pasted onto a fixture photo (its hand-traced alpha), so a mask that merely sits around the click fails.
 */
describe('POST /api/select-object', () => {
  let server: TestServer;
  let cases: SelectionCase[];
  // The model is slow on a loaded 2-core machine; the checks that need no model are quick.
  const MODEL_MS = 600_000;

  beforeAll(async () => {
    // Object removal jobs run the echo engine: only the daily count matters to these tests.
    server = await startTestServer({ localEngineOverrides: { 'object-removal': testEngine('echo') } });
    cases = await selectionCases();
  }, MODEL_MS);
  afterAll(() => server?.close());

  const byName = (name: string) => cases.find((c) => c.name === name) as SelectionCase;

  function select(visitor: Visitor, image: Buffer, fields: Record<string, string | number>) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
    form.append('file', blob(image, 'image/png'), 'photo.png');
    return visitor.fetch('/api/select-object', { method: 'POST', body: form });
  }

  /** Prepares a photo for object removal; the crops kept and the model runs it took, from the 204's headers. */
  async function prepare(visitor: Visitor, image: Buffer): Promise<{ crops: number; runs: number }> {
    const form = new FormData();
    form.append('operation', 'object-removal');
    form.append('file', blob(image, 'image/png'), 'photo.png');
    const res = await visitor.fetch('/api/select-object/prepare', { method: 'POST', body: form });
    expect(res.status, await res.clone().text()).toBe(204);
    return {
      crops: Number(res.headers.get('x-selection-prepared-crops')),
      runs: Number(res.headers.get('x-selection-model-runs')),
    };
  }

  async function maskOf(res: Response, c: SelectionCase): Promise<Buffer> {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([c.width, c.height]);
    return data;
  }

  /** The truth grown as the API grows its selections against halos: what a perfect selection returns. */
  const grownTruth = (c: SelectionCase) => growSelection(c.truth, c.width, c.height);

  /** A disc around the click with the object's own area: a guess that is even told the size. */
  function disc(c: SelectionCase): Buffer {
    const area = c.truth.reduce((n, v) => n + (v ? 1 : 0), 0);
    const out = Buffer.alloc(c.width * c.height);
    for (let y = 0; y < c.height; y++) {
      for (let x = 0; x < c.width; x++) {
        if ((x - c.point.x) ** 2 + (y - c.point.y) ** 2 <= area / Math.PI) out[y * c.width + x] = 255;
      }
    }
    return out;
  }

  function filledBox(c: SelectionCase): Buffer {
    const out = Buffer.alloc(c.width * c.height);
    for (let y = Math.floor(c.box.y0); y < Math.ceil(c.box.y1); y++) {
      out.fill(255, y * c.width + Math.floor(c.box.x0), y * c.width + Math.ceil(c.box.x1));
    }
    return out;
  }

  it(
    'a click on a pasted person selects the person (IoU >= 0.9 with her outline grown against halos; a disc of her size < 0.7) and costs no daily use',
    async () => {
      const visitor = await signedInVisitor(server);
      const c = byName('astronaut on chelsea.png');
      const mask = await maskOf(await select(visitor, c.image, { operation: 'object-removal', ...c.point }), c);
      expect(iou(mask, grownTruth(c))).toBeGreaterThanOrEqual(0.9);
      expect(iou(disc(c), grownTruth(c))).toBeLessThan(0.7);
      // Grown a little against halos: the whole person is inside.
      expect(coverage(mask, c.truth)).toBeGreaterThanOrEqual(0.995);
      // The day's two uses of object removal are still there.
      for (let i = 0; i < 2; i++) {
        const res = await visitor.submit({
          operation: 'object-removal',
          file: blob(c.image, 'image/png'),
          mask: blob(
            await sharp(mask, { raw: { width: c.width, height: c.height, channels: 1 } })
              .png()
              .toBuffer(),
          ),
        });
        expect(res.status).toBe(201);
      }
    },
    MODEL_MS,
  );

  it(
    'a box around a pasted cup selects the cup, not the box (IoU >= 0.9 with its grown outline; the box itself < 0.7)',
    async () => {
      const visitor = await signedInVisitor(server);
      const c = byName('coffee on camera.png');
      const mask = await maskOf(await select(visitor, c.image, { operation: 'image-inpainting', ...c.box }), c);
      expect(iou(mask, grownTruth(c))).toBeGreaterThanOrEqual(0.9);
      expect(iou(filledBox(c), grownTruth(c))).toBeLessThan(0.7);
      expect(coverage(mask, c.truth)).toBeGreaterThanOrEqual(0.995);
    },
    MODEL_MS,
  );

  it(
    'a box dragged past the photo’s corner selects what is on the photo inside it',
    async () => {
      const visitor = await signedInVisitor(server);
      // The spoon in the coffee photo's lower right, the box dragged out beyond the corner (600x400).
      const res = await select(visitor, fixture('coffee.png'), {
        operation: 'object-removal',
        x0: 310,
        y0: 50,
        x1: 640,
        y1: 460,
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const { data, info } = await sharp(Buffer.from(await res.arrayBuffer()))
        .greyscale()
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([600, 400]);
      const selected = data.reduce((n, v) => n + (v > 127 ? 1 : 0), 0);
      expect(selected).toBeGreaterThan(1000);
    },
    MODEL_MS,
  );

  it('guests cannot select (object removal is for signed-in users)', async () => {
    const res = await select(server.visitor(), fixture('coffee.png'), { operation: 'object-removal', x: 300, y: 200 });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('FEATURE_RESTRICTED');
  });

  it('answers catalogue errors for a missing or outside prompt, a tool without a mask and a non-image', async () => {
    const visitor = await signedInVisitor(server);
    const photo = fixture('coffee.png'); // 600x400
    const invalid = {
      code: 'SELECT_PROMPT_INVALID',
      message: 'Click on an object in the photo, or drag a box around it, to select it',
    };
    const prompts: Record<string, string | number>[] = [
      { operation: 'object-removal' },
      { operation: 'object-removal', x: 601, y: 10 },
      { operation: 'object-removal', x: 'left', y: 10 },
      { operation: 'object-removal', x0: 10, y0: 10, x1: 12, y1: 300 },
      { operation: 'object-removal', x: 10, y: 10, x0: 0, y0: 0, x1: 100, y1: 100 },
      // A box wholly off the photo encloses nothing of it.
      { operation: 'object-removal', x0: 610, y0: 10, x1: 700, y1: 300 },
    ];
    for (const fields of prompts) {
      const res = await select(visitor, photo, fields);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(invalid);
    }
    const noMask = await select(visitor, photo, { operation: 'denoising', x: 10, y: 10 });
    expect(noMask.status).toBe(400);
    const text = await select(visitor, Buffer.from('not a photo'), { operation: 'object-removal', x: 1, y: 1 });
    expect(text.status).toBe(415);
    expect(((await text.json()) as { code: string }).code).toBe('INVALID_FILE_TYPE');
  });

  it('limits selections per user to 30 a minute', async () => {
    const visitor = await signedInVisitor(server);
    const statuses: number[] = [];
    // Prompts outside the photo fail after the limit is counted, so no model runs.
    for (let i = 0; i < 31; i++) {
      statuses.push(
        (await select(visitor, fixture('chelsea.png'), { operation: 'object-removal', x: -5, y: 0 })).status,
      );
    }
    expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it(
    'reuses the model’s answers for later clicks on the same photo, and drops them when its job is deleted',
    async () => {
      const visitor = await signedInVisitor(server);
      const c = byName('astronaut on chelsea.png');
      // The same pixels encoded anew: a photo of its own, which the clicks of the tests above did not touch.
      const image = await sharp(c.image).png({ compressionLevel: 1 }).toBuffer();
      const click = async () => {
        const res = await select(visitor, image, { operation: 'object-removal', ...c.point });
        await maskOf(res, c);
        return Number(res.headers.get('x-selection-model-runs'));
      };
      expect(await click()).toBeGreaterThanOrEqual(1);
      // The same photo again: every crop's answer is remembered.
      expect(await click()).toBe(0);
      // The photo becomes a job, which its owner deletes: the photo is gone, and so is what was kept about it.
      const res = await visitor.submit({ operation: 'pencil-sketch', file: blob(image, 'image/png') });
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: number };
      await visitor.waitFor(id);
      expect((await visitor.fetch(`/api/images/${id}`, { method: 'DELETE' })).status).toBe(204);
      expect(await click()).toBeGreaterThanOrEqual(1);
    },
    MODEL_MS,
  );
  it(
    'prepares a photo before its first click: the click then selects what it selects alone, with one small model run; what was prepared is dropped with the photo',
    async () => {
      const visitor = await signedInVisitor(server);
      const c = byName('astronaut on chelsea.png');
      // Enlarged to 1920 px, where the first click waits for the larger crops (smaller photos prepare only the whole
      // photo), and encoded twice: two photos of their own, untouched by the tests above.
      const k = 1920 / c.width;
      const size = { width: 1920, height: Math.round(c.height * k) };
      const point = { x: Math.round(c.point.x * k), y: Math.round(c.point.y * k) };
      const big = sharp(c.image).resize(size.width, size.height);
      const alone = await big.clone().png({ compressionLevel: 2 }).toBuffer();
      const prepared = await big.clone().png({ compressionLevel: 3 }).toBuffer();
      const click = async (image: Buffer) => {
        const res = await select(visitor, image, { operation: 'object-removal', ...point });
        return { mask: await maskOf(res, { ...c, ...size }), runs: Number(res.headers.get('x-selection-model-runs')) };
      };
      const first = await click(alone);
      // Alone, the first click needs a larger crop than its first (the person is cut off by it).
      expect(first.runs).toBeGreaterThanOrEqual(2);
      const prep = await prepare(visitor, prepared);
      expect(prep.crops).toBeGreaterThanOrEqual(2);
      expect(prep.runs).toBe(prep.crops);
      const after = await click(prepared);
      expect(after.runs).toBe(1);
      expect(after.mask.equals(first.mask)).toBe(true);
      // Prepared again: everything is kept.
      expect((await prepare(visitor, prepared)).runs).toBe(0);
      // The photo becomes a job, which its owner deletes: what was prepared for it goes with it.
      const res = await visitor.submit({ operation: 'pencil-sketch', file: blob(prepared, 'image/png') });
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: number };
      await visitor.waitFor(id);
      expect((await visitor.fetch(`/api/images/${id}`, { method: 'DELETE' })).status).toBe(204);
      expect((await click(prepared)).runs).toBeGreaterThanOrEqual(2);
    },
    MODEL_MS,
  );
  it(
    'prepares every grid crop of a square photo, the later ones in spare time: a click anywhere then runs one small model run',
    async () => {
      const visitor = await signedInVisitor(server);
      const c = byName('coffee on camera.png');
      const k = 1920 / c.width;
      const size = { width: 1920, height: Math.round(c.height * k) };
      expect(size.height).toBe(1920);
      const point = { x: Math.round(c.point.x * k), y: Math.round(c.point.y * k) };
      // A photo of its own (no other test encodes it at this level).
      const image = await sharp(c.image).resize(size.width, size.height).png({ compressionLevel: 4 }).toBuffer();
      // Sixteen 55 % crops and the whole photo: six at once, the other eleven once no job was in hand.
      expect(await prepare(visitor, image)).toEqual({ crops: 17, runs: 17 });
      const click = await select(visitor, image, { operation: 'object-removal', ...point });
      expect(click.status).toBe(200);
      expect(Number(click.headers.get('x-selection-model-runs'))).toBe(1);
      const mask = await maskOf(click, { ...c, ...size });
      const truth = await sharp(c.truth, { raw: { width: c.width, height: c.height, channels: 1 } })
        .resize(size.width, size.height, { kernel: 'nearest' })
        .extractChannel(0)
        .raw()
        .toBuffer();
      expect(iou(mask, growSelection(truth, size.width, size.height))).toBeGreaterThanOrEqual(0.9);
    },
    MODEL_MS,
  );
});
