import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInVisitor } from './support/auth.js';
import { blob, fixture, startTestServer, type TestServer, testEngine } from './support/server.js';

/**
 * GET /api/images/:id/recommendations through the real server: the analysis (with face detection) runs in one of the
 * engine pool's hosts. The jobs themselves run the echo engine, so no model is spent on them; face
 * enhancement and super-resolution get it too, so that they count as available here.
 */
describe('GET /api/images/:id/recommendations', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      localEngineOverrides: {
        'background-removal': testEngine('echo'),
        'super-resolution': testEngine('echo'),
        'face-enhancement': testEngine('echo'),
      },
      env: { ENGINE_DENOISING: 'off', ENGINE_HDR_ENHANCEMENT: 'off' },
    });
  });
  afterAll(() => server.close());

  async function submit(operation: string, name: string, type = 'image/png') {
    const visitor = await signedInVisitor(server);
    const res = await visitor.submit({ file: blob(fixture(name), type), operation });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: number };
    return { visitor, id };
  }

  it('suggests face enhancement (faces found in the worker) and super-resolution for the 512 px astronaut', async () => {
    const { visitor, id } = await submit('background-removal', 'astronaut.png');
    const res = await visitor.fetch(`/api/images/${id}/recommendations`);
    expect(res.status).toBe(200);
    const recs = (await res.json()) as { operationId: string; reason: string; confidence: number }[];
    expect(recs.map((r) => r.operationId).sort()).toEqual(['face-enhancement', 'super-resolution']);
    for (const r of recs) {
      expect(r.reason.length).toBeGreaterThan(10);
      expect(r.confidence).toBeGreaterThan(0);
      expect(r.confidence).toBeLessThanOrEqual(1);
    }
  });

  it('leaves out the job’s own tool and tools that cannot run here', async () => {
    // The night launch is dark (HDR, switched off here) and small; its own tool, super-resolution, is not suggested.
    const { visitor, id } = await submit('super-resolution', 'rocket.jpg', 'image/jpeg');
    const recs = (await (await visitor.fetch(`/api/images/${id}/recommendations`)).json()) as { operationId: string }[];
    const ids = recs.map((r) => r.operationId);
    expect(ids).not.toContain('super-resolution');
    expect(ids).not.toContain('hdr-enhancement');
    expect(ids).not.toContain('denoising');
  });

  it('answers 404 to anyone but the owner, and for unknown jobs', async () => {
    const { id } = await submit('background-removal', 'coffee.png');
    const stranger = server.visitor();
    const res = await stranger.fetch(`/api/images/${id}/recommendations`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 'NOT_FOUND', message: 'Image not found' });
    expect((await stranger.fetch('/api/images/999999/recommendations')).status).toBe(404);
  });
});
