import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { blob, fixture, startTestServer, type TestServer, testEngine } from './support/server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const INLINE = "document.documentElement.dataset.guard='1'";

/** A stand-in production build: an index.html with one inline script, and a hashed asset. */
function fakeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><script>${INLINE}</script></head><body><div id="root">app</div></body></html>`,
  );
  fs.writeFileSync(path.join(dir, 'assets/index-abc123.js'), 'console.log(1)');
  return dir;
}

describe('HTTP hardening', () => {
  let server: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = fakeBuild();
    server = await startTestServer({
      env: { WEB_DIST_DIR: dist, REQUEST_TIMEOUT_MS: '1500' },
      localEngineOverrides: { 'face-enhancement': testEngine('echo') },
    });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends the security headers on every kind of answer', async () => {
    const v = server.visitor();
    const hash = createHash('sha256').update(INLINE).digest('base64');
    for (const p of [
      '/',
      '/features/face-enhancement',
      '/no-such-page',
      '/assets/index-abc123.js',
      '/api/health',
      '/api/nope',
    ]) {
      const res = await v.fetch(p);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, p).toContain("frame-ancestors 'none'");
      expect(csp, p).toContain("default-src 'self'");
      expect(csp, p).toContain("object-src 'none'");
      // Only the build's own inline script may run, by its hash: no 'unsafe-inline' for scripts.
      expect(csp, p).toMatch(new RegExp(`script-src 'self' 'sha256-${hash.replace(/[+/]/g, '\\$&')}'`));
      expect(csp, p).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(res.headers.get('x-content-type-options'), p).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), p).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-frame-options'), p).toBe('DENY');
    }
  });

  it('answers the app for its pages, and 404 with the app (its 404 page) for any other path', async () => {
    const v = server.visitor();
    for (const p of [
      '/',
      '/features/hdr',
      '/features/face-enhancement',
      '/docs/troubleshooting',
      '/status',
      '/result',
    ]) {
      const res = await v.fetch(p);
      expect(res.status, p).toBe(200);
      expect(await res.text(), p).toContain('<div id="root">');
    }
    for (const p of ['/no-such-page', '/features/teleportation', '/docs/nope', '/status/deep']) {
      const res = await v.fetch(p);
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type'), p).toMatch(/^text\/html/);
      expect(await res.text(), p).toContain('<div id="root">');
    }
    expect((await v.fetch('/api/nope')).status).toBe(404);
  });

  it('refuses more form fields than allowed with a 400 that says so', async () => {
    const form = new FormData();
    form.append('operation', 'face-enhancement');
    for (let i = 0; i < 60; i++) form.append(`f${i}`, 'x');
    const res = await server.visitor().fetch('/api/images', { method: 'POST', body: form });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 'BAD_REQUEST', message: 'Too many form fields' });
  });

  it('does not echo a long operation name back', async () => {
    const name = 'x'.repeat(5000);
    const res = await server.visitor().submit({ operation: name, file: blob(fixture('astronaut.png')) });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe('UNKNOWN_OPERATION');
    expect(body.message).toBe(`Unknown operation "${'x'.repeat(40)}…"`);
  });

  it('answers 404 for a result index past the outputs of a finished job', async () => {
    const v = server.visitor();
    const res = await v.submit({ operation: 'face-enhancement', file: blob(fixture('astronaut.png')) });
    const { id } = (await res.json()) as { id: number };
    expect((await v.waitFor(id)).status).toBe('completed');
    expect((await v.fetch(`/api/images/${id}/result/0`)).status).toBe(200);
    const past = await v.fetch(`/api/images/${id}/result/1`);
    expect(past.status).toBe(404);
    expect(await past.json()).toEqual({ code: 'NOT_FOUND', message: 'Image not found' });
  });

  it('cuts off an upload trickled slower than the request timeout', async () => {
    const started = Date.now();
    const outcome = await new Promise<{ status?: number; closed: boolean }>((resolve) => {
      const req = http.request(`${server.url}/api/images`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=b', 'content-length': String(1024 * 1024) },
      });
      const timer = setInterval(() => req.write('x'), 200);
      const done = (r: { status?: number; closed: boolean }) => {
        clearInterval(timer);
        req.destroy();
        resolve(r);
      };
      req.on('response', (res) => done({ status: res.statusCode, closed: false }));
      req.on('error', () => done({ closed: true }));
      req.write('--b\r\nContent-Disposition: form-data; name="operation"\r\n\r\nface-enhancement\r\n');
    });
    const took = Date.now() - started;
    // 1.5 s allowed. Without the limit the upload would run on for minutes.
    expect(took).toBeLessThan(6_000);
    expect(outcome.closed || outcome.status === 408).toBe(true);
  });
});

describe('where the server listens', () => {
  it('binds 127.0.0.1 in emulator sign-in mode unless HOST is set; everywhere with real sign-in', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ AUTH_MODE: 'firebase', FIREBASE_PROJECT_ID: 'p', FIREBASE_API_KEY: 'k' }).host).toBe('0.0.0.0');
  });

  /** Starts `server/src/main.ts` and waits for its health answer; collects what it logs. */
  async function startMain(env: Record<string, string>): Promise<{ child: ChildProcess; log: () => string }> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-main-'));
    let out = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, HOST: '', DATA_DIR: dataDir, LOG_LEVEL: 'warn', AUTH_EMULATOR_START: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (c) => (out += c));
    child.stderr?.on('data', (c) => (out += c));
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`main.ts exited: ${out}`);
      const ok = await fetch(`http://127.0.0.1:${env.PORT}/api/health`).then(
        () => true,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error('main.ts did not answer');
      await new Promise((r) => setTimeout(r, 250));
    }
    return { child, log: () => out };
  }

  const stop = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });

  /** Whether something accepts TCP connections at host:port. */
  const reachable = (host: string, port: number) =>
    new Promise<boolean>((resolve) => {
      const s = net.connect({ host, port }, () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });

  const externalAddress = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

  it.skipIf(!externalAddress)(
    'npm start in emulator mode cannot be reached from the network',
    async () => {
      const port = 20_000 + Math.floor(Math.random() * 9000); // below the ephemeral range (32768 up)
      const { child } = await startMain({ PORT: String(port) });
      try {
        expect(await reachable('127.0.0.1', port)).toBe(true);
        expect(await reachable(externalAddress as string, port)).toBe(false);
      } finally {
        await stop(child);
      }
    },
    120_000,
  );

  it('warns when HOST opens emulator sign-in to the network', async () => {
    const port = 20_000 + Math.floor(Math.random() * 9000); // below the ephemeral range (32768 up)
    const { child, log } = await startMain({ PORT: String(port), HOST: '0.0.0.0' });
    await stop(child);
    expect(log()).toContain('HOST=0.0.0.0 with emulator sign-in');
  }, 120_000);
});
