import fs from 'node:fs';
import { generateSchema, SCHEMA_FILE } from '@ai-editor/client/generate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';

/** The typed client's types are generated from /api/openapi.json and checked in: they must match the server's. */
describe('the generated API client', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('matches the OpenAPI document (run `npm run generate:client` after changing the API)', async () => {
    const document = await (await fetch(`${server.url}/api/openapi.json`)).json();
    expect(await generateSchema(document)).toBe(fs.readFileSync(SCHEMA_FILE, 'utf8'));
  });
});
