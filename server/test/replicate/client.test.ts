// The client's own guards against the local stand-in: what a broken or oversized answer becomes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ReplicateClient } from '../../src/engines/replicate/client.js';
import { ProviderError } from '../../src/engines/replicate/provider-error.js';
import { type Standin, startStandin } from './standin.js';

const TOKEN = 'r8_client_test_token';
const VERSION = 'ca494ba129e44e45f661d6ece83c4c98a9a7c774309beca01429b58fce8aa695';
const quiet = { warn: () => {}, error: () => {} };

let s: Standin;
let client: ReplicateClient;
beforeAll(async () => {
  s = await startStandin({ token: TOKEN });
  client = new ReplicateClient({ token: TOKEN, baseUrl: s.url, pollMs: 5, log: quiet });
});
afterAll(() => s.close());
beforeEach(() => s.reset());

const create = () =>
  client.createPrediction({ owner: 'piddnad', name: 'ddcolor', version: VERSION }, {}, new AbortController().signal);

describe('Replicate client: answers it will not read', () => {
  it('an answer over 5 MB is refused as unreadable, not buffered', async () => {
    const huge = JSON.stringify({ id: 'x', status: 'starting', logs: 'a'.repeat(6 * 1024 * 1024) });
    s.script({ createAnswer: { status: 201, contentType: 'application/json', body: huge } });
    const err = await create().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ code: 'badAnswer', message: 'The image provider sent an answer we could not read' });
  });

  it('an answer that is not a prediction is refused the same way', async () => {
    s.script({ createAnswer: { status: 201, contentType: 'text/html', body: '<html>maintenance</html>' } });
    await expect(create()).rejects.toMatchObject({ code: 'badAnswer' });
  });

  it('a 503 is "unavailable", with no provider text in the message', async () => {
    s.script({ createAnswer: { status: 503, contentType: 'text/plain', body: 'upstream connect error at 10.0.0.7' } });
    await expect(create()).rejects.toMatchObject({
      code: 'unavailable',
      message: 'The image provider is unavailable. Please try again later',
    });
  });
});
