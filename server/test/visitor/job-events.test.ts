import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream } from '../../../test-support/sse.js';
import { blob, fixture, startTestServer, type TestServer, testEngine, type Visitor } from '../support/server.js';

/** GET /api/images/:id/events: a job's changes pushed as Server-Sent Events (embedded mode). */
let server: TestServer;
const photo = () => blob(fixture('chelsea.png'), 'image/png');

interface Job {
  id: number;
  status: string;
  processedUrl: string | null;
  completedAt: string | null;
  metadata: { stage?: string; percent?: number | null; error?: string };
}

beforeAll(async () => {
  server = await startTestServer({
    localEngineOverrides: { 'face-enhancement': testEngine('slow-echo') },
  });
}, 240_000);
afterAll(() => server?.close());

const watch = (v: Visitor, id: number) =>
  openEventStream<Job>((url, init) => v.fetch(url, init), `/api/images/${id}/events`);

async function submit(v: Visitor): Promise<Job> {
  const res = await v.submit({ operation: 'face-enhancement', file: photo() });
  expect(res.status).toBe(201);
  return (await res.json()) as Job;
}

describe('job status stream', () => {
  it('sends the job now, its progress and its completion, then ends; the last event is what GET answers', async () => {
    const v = server.visitor();
    const job = await submit(v);
    const stream = await watch(v, job.id);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await stream.events; // resolves when the server ends the stream
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(events[0]?.data.status).toBe('pending');
    expect(events.some((e) => e.data.metadata.stage === 'waiting')).toBe(true);
    const last = events.at(-1)?.data as Job;
    expect(last.status).toBe('completed');
    expect(last.processedUrl).toBe(`/api/images/${job.id}/result/0?preview=1024`); // a guest's job
    expect(last).toEqual(await (await v.fetch(`/api/images/${job.id}`)).json());
  });

  it('delivers the completion within 300 ms of the job being completed', async () => {
    const v = server.visitor();
    const job = await submit(v);
    const stream = await watch(v, job.id);
    let arrived = 0;
    stream.onEvent((e) => {
      if (e.data.status === 'completed') arrived = Date.now();
    });
    const events = await stream.events;
    const completedAt = Date.parse(events.at(-1)?.data.completedAt as string);
    expect(arrived).toBeGreaterThan(0);
    expect(arrived - completedAt).toBeLessThan(300);
  });

  it('a finished job: one event, then the end; a cancelled one ends failed', async () => {
    const v = server.visitor();
    const job = await submit(v);
    await v.waitFor(job.id);
    const done = await (await watch(v, job.id)).events;
    expect(done.map((e) => e.data.status)).toEqual(['completed']);

    const other = await submit(v);
    const stream = await watch(v, other.id);
    await v.fetch(`/api/images/${other.id}/cancel`, { method: 'POST' });
    const events = await stream.events;
    expect(events.at(-1)?.data).toMatchObject({ status: 'failed', metadata: { error: 'Cancelled' } });
  });

  it("is owner-only: someone else's job, or no job, is the 404 of a missing one (as JSON, no stream)", async () => {
    const owner = server.visitor();
    const job = await submit(owner);
    for (const path of [`/api/images/${job.id}/events`, '/api/images/999999/events']) {
      const res = await server.visitor().fetch(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ code: 'NOT_FOUND', message: 'Image not found' });
    }
    await owner.waitFor(job.id);
  });

  it('a visitor who leaves stops the stream; the job runs on to its end', async () => {
    const v = server.visitor();
    const job = await submit(v);
    const stream = await watch(v, job.id);
    await new Promise((r) => setTimeout(r, 100));
    stream.stop();
    // Left while the job ran (the engine takes 1.5 s): the job as it was, no completion.
    const seen = await stream.events;
    expect(seen[0]?.data.status).toBe('pending');
    expect(seen.some((e) => e.data.status !== 'pending')).toBe(false);
    const done = (await v.waitFor(job.id)) as unknown as Job;
    expect(done.status).toBe('completed');
    const result = await v.fetch(done.processedUrl as string);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toMatch(/^image\//);
    // Coming back, the visitor is shown the finished job at once.
    const again = await (await watch(v, job.id)).events;
    expect(again.map((e) => e.data.status)).toEqual(['completed']);
  });
});
