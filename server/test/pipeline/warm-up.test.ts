/**
 * The readiness probe waits for the engine hosts' warm-up at start: a host already runs jobs while it warms its
 * engines, but a first job of a tool not yet warmed would pay for its warm-up, so /api/health/ready answers 503
 * until every host has warmed, then 200.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInVisitor } from '../support/auth.js';
import { blob, fixture, startTestServer, type TestServer, testEngine } from '../support/server.js';
import { WARM_GATE_ENV } from '../test-engines/slow-warm.js';

async function readiness(server: TestServer) {
  const res = await server.visitor().fetch('/api/health/ready');
  return { status: res.status, body: await res.json() };
}

describe('readiness and the engine hosts’ warm-up', () => {
  const gate = path.join(os.tmpdir(), `aie-warm-gate-${process.pid}-${Date.now()}`);
  let server: TestServer;
  beforeAll(async () => {
    // The hosts take the test's environment: the warm-up ends when the test creates this file.
    process.env[WARM_GATE_ENV] = gate;
    server = await startTestServer({
      env: { ENGINE_PRELOAD: 'hdr-enhancement' },
      localEngineOverrides: { 'hdr-enhancement': testEngine('slow-warm'), 'pencil-sketch': testEngine('echo') },
    });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(gate, { force: true });
    delete process.env[WARM_GATE_ENV];
  });

  it('answers not ready while the host warms (it already runs jobs), ready once it has warmed', async () => {
    const visitor = await signedInVisitor(server);
    const res = await visitor.submit({ operation: 'pencil-sketch', file: blob(fixture('chelsea.png')) });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: number };
    expect(await visitor.waitFor(id)).toMatchObject({ status: 'completed' });

    expect(await readiness(server)).toEqual({
      status: 503,
      body: { status: 'not-ready', checks: { database: true, storage: true, queue: true, engineHost: false } },
    });

    fs.writeFileSync(gate, '');
    const end = Date.now() + 30_000;
    while ((await readiness(server)).status !== 200 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    expect(await readiness(server)).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: true, storage: true, queue: true, engineHost: true } },
    });
  });
});
