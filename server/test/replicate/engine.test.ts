// The Replicate engine end to end against the local stand-in: exact requests per mapping, polling, output copying
// and every failure path. No test reaches the internet.
import { getOperation, type OperationId, type Params, parseParams } from '@ai-editor/core';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Config, loadConfig } from '../../src/config.js';
import { createReplicateEngine } from '../../src/engines/replicate/engine.js';
import type { EngineContext, EngineInput, Progress } from '../../src/engines/types.js';
import { makeImage, type RecordedRequest, type Standin, startStandin } from './standin.js';

const TOKEN = 'r8_engine_test_token';
const V = {
  sdxl: '7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc',
  sd: 'ac732df83cea7fff18b8472768c88ad041fa750ff7682a21affe81863cbe77e4',
  photomaker: '467d062309da518648ba89d226490e02b8ed09b5abc15026e54e31c5a8cd0769',
  ddcolor: 'ca494ba129e44e45f661d6ece83c4c98a9a7c774309beca01429b58fce8aa695',
  faceswap: 'd1d6ea8c8be89d664a07a457526f7128109dee7030fdac424788d762c71ed111',
  sam: '9222a21c181b707209ef12b5e0d7e94c994b58f01c7b2fec075d2e892362f13c',
};

let s: Standin;
beforeAll(async () => {
  s = await startStandin({ token: TOKEN });
});
afterAll(() => s.close());
beforeEach(() => {
  s.reset();
});

interface LogEntry {
  level: 'warn' | 'error';
  obj: object;
  msg?: string;
}
const logs: LogEntry[] = [];
const log = {
  warn: (obj: object, msg?: string) => logs.push({ level: 'warn', obj, msg }),
  error: (obj: object, msg?: string) => logs.push({ level: 'error', obj, msg }),
};

function config(over: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    replicateApiToken: TOKEN,
    replicateApiBaseUrl: s.url,
    replicatePollMs: 5,
    replicateModels: {},
    replicateInputs: {},
    ...over,
  };
}

function context(signal: AbortSignal = new AbortController().signal) {
  const progress: Progress[] = [];
  const ctx: EngineContext = { progress: (p) => progress.push(p), threads: 1, signal };
  return { ctx, progress };
}

function params(op: OperationId, fields: Record<string, unknown> = {}): Params {
  return parseParams(getOperation(op), fields);
}

async function run(op: OperationId, input: Partial<EngineInput>, cfg = config(), signal?: AbortSignal) {
  const engine = createReplicateEngine(op, cfg, { log });
  const { ctx, progress } = context(signal);
  const out = await engine.run({ operation: op, ...input, params: input.params ?? params(op) }, ctx);
  return { out, progress };
}

const creates = () => s.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/predictions'));
const onlyCreate = (): RecordedRequest => {
  const list = creates();
  expect(list).toHaveLength(1);
  return list[0] as RecordedRequest;
};
const dataUriImage = (uri: unknown) => Buffer.from(String(uri).split(',')[1] ?? '', 'base64');

async function expectPng(buf: Buffer | undefined, width?: number) {
  expect(buf).toBeDefined();
  const meta = await sharp(buf).metadata();
  expect(meta.format).toBe('png');
  expect(meta.exif).toBeUndefined();
  if (width) expect(meta.width).toBe(width);
}

describe('Replicate engine: the request for each mapping', () => {
  it('text2img runs SDXL with the expert-ensemble refiner and no watermark', async () => {
    const { out } = await run('text2img', { params: params('text2img', { prompt: 'a red fox in snow' }) });
    const req = onlyCreate();
    expect(req.path).toBe('/v1/predictions');
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.accept).toBe('application/json');
    expect(req.body).toEqual({
      version: V.sdxl,
      input: {
        prompt: 'a red fox in snow',
        width: 768,
        height: 768,
        refine: 'expert_ensemble_refiner',
        apply_watermark: false,
        num_inference_steps: 25,
      },
    });
    expect(out.images).toHaveLength(1);
    await expectPng(out.images[0], 8);
    expect(out.metadata).toMatchObject({
      provider: 'replicate',
      model: 'stability-ai/sdxl',
      version: V.sdxl,
      predictionId: expect.stringMatching(/^\w+$/),
    });
  });

  it('text-to-image-diffusion sends the scheduler explicitly and keeps every output', async () => {
    const jpeg = await makeImage(16, 12, 'jpeg');
    const webp = await makeImage(16, 12, 'webp');
    s.script({
      files: [
        { data: jpeg, ext: 'jpg' },
        { data: webp, ext: 'webp' },
        { data: jpeg, ext: 'jpg' },
      ],
    });
    const p = params('text-to-image-diffusion', { prompt: 'a lighthouse', num_outputs: '3', guidance_scale: '9.5' });
    const { out } = await run('text-to-image-diffusion', { params: p });
    expect(onlyCreate().body).toEqual({
      version: V.sd,
      input: {
        prompt: 'a lighthouse',
        width: 768,
        height: 768,
        scheduler: 'K_EULER',
        num_outputs: 3,
        guidance_scale: 9.5,
        num_inference_steps: 50,
      },
    });
    expect(out.images).toHaveLength(3);
    for (const img of out.images) await expectPng(img, 16);
  });

  it('style-transfer sends the photo, the img prompt and the strength mapped onto 15–50', async () => {
    const photo = await makeImage(64, 64, 'jpeg');
    const p = params('style-transfer', { style_strength_ratio: '35', num_outputs: '2', num_steps: '30' });
    s.script({
      files: [
        { data: await makeImage(8, 8), ext: 'png' },
        { data: await makeImage(8, 8), ext: 'png' },
      ],
    });
    const { out } = await run('style-transfer', { image: photo, params: p });
    const body = onlyCreate().body as { version: string; input: Record<string, unknown> };
    expect(body).toEqual({
      version: V.photomaker,
      input: {
        input_image: expect.stringMatching(/^data:image\/jpeg;base64,/),
        prompt: 'A portrait of a person img, in the style of a vibrant oil painting, masterpiece',
        negative_prompt: getOperation('style-transfer').params.find((d) => d.name === 'negative_prompt')?.default,
        num_steps: 30,
        style_strength_ratio: 27,
        num_outputs: 2,
      },
    });
    expect((await sharp(dataUriImage(body.input.input_image)).metadata()).width).toBe(64);
    expect(out.images).toHaveLength(2);
  });

  it('colorization runs DDColor (large) on the photo', async () => {
    const { out } = await run('colorization', { image: await makeImage(32, 32, 'png') });
    expect(onlyCreate().body).toEqual({
      version: V.ddcolor,
      input: { image: expect.stringMatching(/^data:image\/png;base64,/), model_size: 'large' },
    });
    await expectPng(out.images[0]);
  });

  it('face-swap puts the second photo’s face (file2) into the first photo', async () => {
    const target = await makeImage(24, 24, 'png', { r: 255, g: 0, b: 0 });
    const face = await makeImage(24, 24, 'png', { r: 0, g: 0, b: 255 });
    await run('face-swap', { image: target, image2: face });
    const input = (onlyCreate().body as { version: string; input: Record<string, string> }).input;
    expect(Object.keys(input).sort()).toEqual(['input_image', 'swap_image']);
    const colour = async (uri: string | undefined) => (await sharp(dataUriImage(uri)).raw().toBuffer()).subarray(0, 3);
    expect([...(await colour(input.input_image))]).toEqual([255, 0, 0]);
    expect([...(await colour(input.swap_image))]).toEqual([0, 0, 255]);
  });

  it('face-aging asks SAM for one age, as the string it expects', async () => {
    const p = params('face-aging', { target_age: '65' });
    await run('face-aging', { image: await makeImage(32, 32, 'jpeg'), params: p });
    expect(onlyCreate().body).toEqual({
      version: V.sam,
      input: { image: expect.stringMatching(/^data:image\/jpeg;base64,/), target_age: '65' },
    });
  });

  it('uploads large photos through POST /v1/files, metadata stripped, and deletes them afterwards', async () => {
    // Noise does not compress: well over the 256 KB data-URI limit.
    const noise = Buffer.from(Array.from({ length: 600 * 600 * 3 }, () => Math.floor(Math.random() * 256)));
    const big = await sharp(noise, { raw: { width: 600, height: 600, channels: 3 } })
      .jpeg({ quality: 100 })
      .withExif({ IFD0: { Copyright: 'private', ImageDescription: 'home address' } })
      .toBuffer();
    await run('colorization', { image: big });
    const upload = s.requests.find((r) => r.method === 'POST' && r.path === '/v1/files');
    expect(upload?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(String(upload?.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload?.parts).toHaveLength(1);
    const part = upload?.parts?.[0];
    expect(part).toMatchObject({ field: 'content', filename: 'image.jpg', mimetype: 'image/jpeg' });
    const sent = await sharp(part?.data).metadata();
    expect(sent.width).toBe(600);
    expect(sent.exif).toBeUndefined();
    const input = (onlyCreate().body as { input: Record<string, string> }).input;
    expect(input.image).toMatch(new RegExp(`^${s.url}/v1/files/[\\w-]+$`));
    expect(s.requests.some((r) => r.method === 'DELETE' && input.image?.endsWith(r.path))).toBe(true);
    expect(s.files.size).toBe(0);
  });
});

describe('Replicate engine: polling and results', () => {
  it('polls with growing delays and reports queued / running progress from the model’s logs', async () => {
    s.script({
      startingPolls: 2,
      processingPolls: 3,
      logs: ['  0%|          | 0/25', ' 40%|####      | 10/25', '100%|##########| 25/25'],
    });
    const cfg = config({ replicatePollMs: 20 });
    const { progress } = await run('text2img', { params: params('text2img', { prompt: 'x' }) }, cfg);
    const polls = s.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/predictions/'));
    expect(polls).toHaveLength(6);
    const gaps = polls.map((r, i) => r.at - (i === 0 ? (creates()[0]?.at ?? 0) : (polls[i - 1]?.at ?? 0)));
    expect(gaps[0]).toBeGreaterThanOrEqual(18);
    expect(gaps[4]).toBeGreaterThanOrEqual(80); // 20 → 30 → 45 → 67 → 100 (capped at 5x)
    expect(progress.map((p) => p.stage)).toContain('queued at provider');
    const running = progress.filter((p) => p.stage === 'running').map((p) => p.percent);
    expect(running).toEqual([10, 42, 90]);
    expect(progress.at(-1)).toEqual({ stage: 'downloading results', percent: 95 });
  });

  it('copies every output at once: the provider’s file is gone and our PNG has no metadata', async () => {
    const withExif = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#3366cc' } })
      .jpeg()
      .withExif({ IFD0: { Artist: 'provider' } })
      .toBuffer();
    s.script({ files: [{ data: withExif, ext: 'jpg' }] });
    const { out } = await run('colorization', { image: await makeImage(8, 8) });
    expect(s.outputs.size).toBe(0);
    const prediction = [...s.predictions.values()].at(-1);
    const url = (prediction?.output as string) ?? '';
    expect((await fetch(url)).status).toBe(404);
    await expectPng(out.images[0], 20);
    const [r, g, b] = await sharp(out.images[0]).raw().toBuffer();
    expect(Math.abs((r ?? 0) - 0x33) + Math.abs((g ?? 0) - 0x66) + Math.abs((b ?? 0) - 0xcc)).toBeLessThan(12);
  });

  it('retries a 429 after the time Replicate asks for', async () => {
    s.script(
      {
        createAnswer: {
          status: 429,
          contentType: 'application/json',
          body: '{"detail":"slow down","retry_after":0.02}',
        },
      },
      {},
    );
    const { out } = await run('colorization', { image: await makeImage(8, 8) });
    expect(creates()).toHaveLength(2);
    expect(out.images).toHaveLength(1);
  });
});

describe('Replicate engine: failures', () => {
  it('a failed prediction becomes "Provider rejected the request: …" with the model’s first error line', async () => {
    s.script({
      outcome: 'failed',
      error:
        'NSFW content detected. Try running it again, or try a different prompt.\nTraceback (most recent call last):',
    });
    await expect(run('text2img', { params: params('text2img', { prompt: 'x' }) })).rejects.toThrow(
      /^Provider rejected the request: NSFW content detected\. Try running it again, or try a different prompt\.$/,
    );
  });

  it('a job timeout cancels the prediction and reads "Provider timed out"', async () => {
    s.script({ outcome: 'hang' });
    const noise = Buffer.from(Array.from({ length: 400 * 400 * 3 }, () => Math.floor(Math.random() * 256)));
    const big = await sharp(noise, { raw: { width: 400, height: 400, channels: 3 } })
      .png()
      .toBuffer();
    const engine = createReplicateEngine('colorization', config({ replicatePollMs: 10 }), { log });
    // The job's timeout fires while the prediction is running at the provider.
    const timeout = new AbortController();
    const ctx: EngineContext = {
      threads: 1,
      signal: timeout.signal,
      progress: (p) => {
        if (p.stage === 'running') timeout.abort(new DOMException('job timeout', 'TimeoutError'));
      },
    };
    await expect(engine.run({ operation: 'colorization', image: big, params: {} }, ctx)).rejects.toThrow(
      /^Provider timed out$/,
    );
    const cancel = s.requests.find((r) => r.method === 'POST' && r.path.endsWith('/cancel'));
    expect(cancel?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const id = cancel?.path.split('/')[3] ?? '';
    expect(s.predictions.get(id)?.status).toBe('canceled');
    // The photo went up through the file endpoint and was deleted there afterwards.
    expect(s.requests.filter((r) => r.path === '/v1/files')).toHaveLength(1);
    expect(s.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
    expect(s.files.size).toBe(0);
  });

  it('a refused token (401) shows a generic text to the visitor and logs the details', async () => {
    logs.length = 0;
    const cfg = config({ replicateApiToken: 'r8_wrong' });
    const err = await run('text2img', { params: params('text2img', { prompt: 'x' }) }, cfg).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('The image provider is not configured correctly');
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'error',
        obj: expect.objectContaining({ status: 401, detail: 'You did not pass a valid authentication token' }),
      }),
    );
  });

  it('an input the model refuses (422) is "Provider rejected the request" with Replicate’s detail', async () => {
    const cfg = config({
      replicateModels: { denoising: `piddnad/ddcolor:${V.ddcolor}` },
      replicateInputs: { denoising: '{"image":"$image","model_size":"huge"}' },
    });
    await expect(run('denoising', { image: await makeImage(8, 8) }, cfg)).rejects.toThrow(
      'Provider rejected the request: - input.model_size: model_size must be one of the following: large, tiny',
    );
  });

  it.each([
    [
      'an HTML page instead of JSON',
      { createAnswer: { status: 200, contentType: 'text/html', body: '<html>oops</html>' } },
    ],
    [
      'a prediction without an id',
      { createAnswer: { status: 201, contentType: 'application/json', body: '{"status":"starting"}' } },
    ],
    ['an output that is not a URL', { output: 42 }],
    ['an output list with a non-URL', { output: ['https://example.invalid/x.png', { url: 1 }] }],
    ['an output file that is not an image', { files: [{ data: Buffer.from('definitely not an image'), ext: 'png' }] }],
  ])('a malformed answer (%s) fails with a clear text', async (_name, script) => {
    s.script(script);
    await expect(run('colorization', { image: await makeImage(8, 8) })).rejects.toThrow(
      /^The image provider sent an answer we could not read$/,
    );
  });
});

describe('Replicate engine: configuration', () => {
  it('runs any operation on a configured model through a generic input template', async () => {
    const cfg = config({
      replicateModels: { denoising: `piddnad/ddcolor:${V.ddcolor}` },
      replicateInputs: { denoising: '{"image":"$image","model_size":"tiny"}' },
    });
    const { out } = await run('denoising', { image: await makeImage(8, 8), params: params('denoising') }, cfg);
    expect(onlyCreate().body).toEqual({
      version: V.ddcolor,
      input: { image: expect.stringMatching(/^data:image\/png;base64,/), model_size: 'tiny' },
    });
    await expectPng(out.images[0]);
  });

  it('uses the model route when a model is configured without a version', async () => {
    await run(
      'colorization',
      { image: await makeImage(8, 8) },
      config({ replicateModels: { colorization: 'piddnad/ddcolor' } }),
    );
    const req = onlyCreate();
    expect(req.path).toBe('/v1/models/piddnad/ddcolor/predictions');
    expect(req.body).toEqual({ input: { image: expect.stringMatching(/^data:/), model_size: 'large' } });
  });

  it('refuses to build without a token, or for an operation with no model', () => {
    expect(() => createReplicateEngine('text2img', config({ replicateApiToken: undefined }))).toThrow(
      'REPLICATE_API_TOKEN is not set',
    );
    expect(() => createReplicateEngine('denoising', config())).toThrow('REPLICATE_MODEL_DENOISING');
    expect(() => createReplicateEngine('denoising', config({ replicateModels: { denoising: 'not a model' } }))).toThrow(
      'owner/name',
    );
  });
});
