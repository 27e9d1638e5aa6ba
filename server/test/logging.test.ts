/**
 * Readable logs: pretty on a terminal, JSON otherwise; a job's lines carry its id and operation; a fault's answer
 * carries the request id that its log lines have.
 */
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/logging.js';
import { signedInVisitor } from './support/auth.js';
import { blob, fixture, startTestServer, type TestServer, testEngine } from './support/server.js';

describe('log format', () => {
  it('is pino-pretty on a terminal and JSON otherwise; LOG_FORMAT overrides', () => {
    expect(loggerOptions({}, true)).toMatchObject({ level: 'info', transport: { target: 'pino-pretty' } });
    expect(loggerOptions({ LOG_LEVEL: 'warn' }, false)).toEqual({ level: 'warn' });
    expect(loggerOptions({ LOG_FORMAT: 'json' }, true)).toEqual({ level: 'info' });
    expect(loggerOptions({ LOG_FORMAT: 'pretty' }, false)).toHaveProperty('transport');
    // The transport's target is installed where pino looks for it.
    expect(() => createRequire(import.meta.url).resolve('pino-pretty')).not.toThrow();
  });
});

describe('log lines of jobs and faults', () => {
  let server: TestServer;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    server = await startTestServer({
      logger: { level: 'info', stream },
      localEngineOverrides: { 'photo-restoration': testEngine('crash') },
    });
  });
  afterAll(async () => {
    await server.close().catch(() => {}); // its database was closed by the last test
  });

  it("carries the job's id and operation on the lines about it", async () => {
    const visitor = await signedInVisitor(server);
    const res = await visitor.submit({ operation: 'photo-restoration', file: blob(fixture('chelsea.png')) });
    const { id } = (await res.json()) as { id: number };
    expect(await visitor.waitFor(id)).toMatchObject({ status: 'failed', metadata: { errorCode: 'WORKER_CRASHED' } });
    const line = lines.find((l) => l.msg === 'the job ended its engine host');
    expect(line).toMatchObject({ job: id, operation: 'photo-restoration' });
  });

  it('answers a fault with { code, message, requestId }, the id its log line has', async () => {
    await server.handle.database.close(); // every request that reads the database now fails
    const res = await server.visitor().fetch('/api/me', { headers: { 'x-request-id': 'report-me-42' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe('report-me-42');
    expect(await res.json()).toEqual({
      code: 'INTERNAL',
      message: 'Something went wrong on our side. Please try again',
      requestId: 'report-me-42',
    });
    expect(lines.find((l) => l.msg === 'request failed')).toMatchObject({ reqId: 'report-me-42' });
  });
});
