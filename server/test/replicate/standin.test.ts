// The stand-in must behave like Replicate where our tests rely on it: token, schema checks, status walk, delivery.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSchemas, type Standin, startStandin } from './standin.js';

const TOKEN = 'r8_standin_test';
let s: Standin;

beforeAll(async () => {
  s = await startStandin({ token: TOKEN });
});
afterAll(() => s.close());

const SDXL = '7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc';
const SD = 'ac732df83cea7fff18b8472768c88ad041fa750ff7682a21affe81863cbe77e4';

function post(path: string, body: unknown, token = TOKEN) {
  return fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}
const get = (path: string) => fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });

describe('Replicate stand-in', () => {
  it('has a schema with its source for every model the engine uses', () => {
    const models = loadSchemas().map((x) => x.model);
    expect(models.sort()).toEqual(
      [
        'cdingram/face-swap',
        'piddnad/ddcolor',
        'stability-ai/sdxl',
        'stability-ai/stable-diffusion',
        'stability-ai/stable-diffusion-inpainting',
        'tencentarc/photomaker-style',
        'yuval-alaluf/sam',
      ].sort(),
    );
    for (const schema of loadSchemas()) {
      expect(schema.version).toMatch(/^[0-9a-f]{64}$/);
      expect(schema.source.join(' ').length).toBeGreaterThan(40);
    }
  });

  it('answers 401 to a wrong token', async () => {
    const res = await post('/v1/predictions', { version: SDXL, input: { prompt: 'x' } }, 'wrong');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ title: 'Unauthenticated', status: 401 });
  });

  it('rejects unknown fields and out-of-range values with 422, per the committed schema', async () => {
    const unknown = await post('/v1/predictions', { version: SDXL, input: { prompt: 'x', colour: 'red' } });
    expect(unknown.status).toBe(422);
    expect(await unknown.json()).toMatchObject({
      title: 'Input validation failed',
      invalid_fields: [{ field: 'input.colour', description: 'Additional property not allowed' }],
    });

    const tooMany = await post('/v1/predictions', { version: SDXL, input: { prompt: 'x', num_outputs: 5 } });
    expect(tooMany.status).toBe(422);
    expect((await tooMany.json()).detail).toContain('input.num_outputs');

    const badWidth = await post('/v1/predictions', { version: SD, input: { prompt: 'x', width: 700 } });
    expect(badWidth.status).toBe(422);
    expect((await badWidth.json()).detail).toContain('width must be one of the following: 64, 128');

    const badChoice = await post('/v1/predictions', { version: SD, input: { scheduler: 'K-LMS' } });
    expect(badChoice.status).toBe(422);

    const wrongType = await post('/v1/predictions', { version: SDXL, input: { apply_watermark: 'false' } });
    expect(wrongType.status).toBe(422);

    const noVersion = await post('/v1/predictions', { version: 'f'.repeat(64), input: {} });
    expect(noVersion.status).toBe(422);
    expect(await noVersion.json()).toMatchObject({ title: 'Invalid version' });
  });

  it('walks starting → processing → succeeded and serves each output once', async () => {
    s.script({ startingPolls: 1, processingPolls: 1, logs: ['50%|#####     | 5/10'] });
    const created = await post('/v1/predictions', { version: SDXL, input: { prompt: 'a fox' } });
    expect(created.status).toBe(201);
    const p = await created.json();
    expect(p.status).toBe('starting');
    const statuses = [];
    let last: { status: string; output: string[]; logs: string } = p;
    for (let i = 0; i < 3; i++) {
      last = await (await get(`/v1/predictions/${p.id}`)).json();
      statuses.push(last.status);
    }
    expect(statuses).toEqual(['starting', 'processing', 'succeeded']);
    expect(last.logs).toContain('50%|');
    expect(last.output).toHaveLength(1);
    const url = last.output[0] as string;
    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(url)).status).toBe(404);
  });

  it('answers the model route with the model’s version, and cancels', async () => {
    s.script({ outcome: 'hang' });
    const created = await post('/v1/models/piddnad/ddcolor/predictions', {
      input: { image: 'data:image/png;base64,AAAA' },
    });
    expect(created.status).toBe(201);
    const p = await created.json();
    expect(p.version).toBe('ca494ba129e44e45f661d6ece83c4c98a9a7c774309beca01429b58fce8aa695');
    const canceled = await (await post(`/v1/predictions/${p.id}/cancel`, {})).json();
    expect(canceled.status).toBe('canceled');
    expect((await post('/v1/models/nobody/nothing/predictions', { input: {} })).status).toBe(404);
  });
});
