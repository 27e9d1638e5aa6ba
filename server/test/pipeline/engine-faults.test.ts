import { errorMessage } from '@ai-editor/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInVisitor } from '../support/auth.js';
import { blob, fixture, startTestServer, type TestServer, testEngine } from '../support/server.js';

/** An engine's bug is the server's to log, never the visitor's to read. */
describe('a fault inside a local engine', () => {
  let server: TestServer;
  const log: string[] = [];
  beforeAll(async () => {
    server = await startTestServer({
      localEngineOverrides: { denoising: testEngine('fault') },
      logger: { level: 'error', stream: { write: (line: string) => void log.push(line) } },
    });
  });
  afterAll(() => server.close());

  it('fails the job with the generic message, and logs the error with its stack', async () => {
    const visitor = await signedInVisitor(server);
    const res = await visitor.submit({ operation: 'denoising', file: blob(fixture('chelsea.png')) });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: number };
    const failed = await visitor.waitFor(id);
    expect(failed).toMatchObject({
      status: 'failed',
      metadata: { error: errorMessage('ENGINE_FAILED'), errorCode: 'ENGINE_FAILED' },
    });
    const answer = await (await visitor.fetch(`/api/images/${id}`)).text();
    expect(answer).not.toMatch(/TypeError|Cannot read properties|fault\.ts/);

    const entry = log.map((line) => JSON.parse(line) as Record<string, unknown>).find((e) => e.msg === 'engine failed');
    expect(entry).toMatchObject({ operation: 'denoising' });
    const stack = String(entry?.stack);
    expect(stack).toContain("TypeError: Cannot read properties of null (reading 'width')");
    expect(stack).toMatch(/at .*test-engines\/fault\.ts/);
  });
});
