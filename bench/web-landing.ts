/**
 * Landing page budget: the gzip size of the JavaScript the landing route loads, and its Largest Contentful Paint
 * in headless Chromium against the production build served by the real server on localhost.
 * Targets: <= 170 KB gzip, LCP <= 1 s. Run with `npm run bench:web` (builds web first).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../e2e/chromium.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = 5;
const TARGET_KB = 170;
const TARGET_LCP_MS = 1000;

async function startServer(port: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-editor-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error('server exited before it was ready');
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.status === 200 || r.status === 503,
      () => false,
    );
    if (ok) break;
    if (i > 480) throw new Error('server did not become healthy in 120 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  const exited = new Promise((r) => child.once('exit', r));
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function main() {
  if (!fs.existsSync(path.join(ROOT, 'web/dist/index.html'))) throw new Error('build the web app first: npm run build');
  const server = await startServer(30_000 + Math.floor(Math.random() * 10_000));
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const lcp: Record<string, number[]> = { desktop: [], 'mobile (4x CPU slowdown)': [] };
    let scripts: { url: string; raw: number; gzip: number }[] = [];
    for (let run = 0; run < RUNS; run++) {
      for (const profile of Object.keys(lcp)) {
        // A fresh context each time: cold cache, as a first visit.
        const context = await browser.newContext({
          viewport: profile === 'desktop' ? { width: 1280, height: 800 } : { width: 375, height: 740 },
        });
        const page = await context.newPage();
        if (profile !== 'desktop') {
          const cdp = await context.newCDPSession(page);
          await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        }
        const js: { url: string; raw: number; gzip: number }[] = [];
        page.on('response', async (res) => {
          if (res.request().resourceType() !== 'script') return;
          const body = await res.body().catch(() => undefined);
          if (body) js.push({ url: new URL(res.url()).pathname, raw: body.length, gzip: gzipSync(body).length });
        });
        await page.goto(server.url, { waitUntil: 'networkidle' });
        const value = await page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              new PerformanceObserver((list) => {
                const entries = list.getEntries();
                resolve(entries[entries.length - 1]?.startTime ?? Number.NaN);
              }).observe({ type: 'largest-contentful-paint', buffered: true });
            }),
        );
        lcp[profile]?.push(value);
        if (run === 0 && profile === 'desktop') scripts = js;
        await context.close();
      }
    }
    const totalGzip = scripts.reduce((a, s) => a + s.gzip, 0) / 1024;
    const totalRaw = scripts.reduce((a, s) => a + s.raw, 0) / 1024;
    console.log('Landing route JavaScript:');
    for (const s of scripts)
      console.log(`  ${s.url}  ${(s.raw / 1024).toFixed(1)} KB raw, ${(s.gzip / 1024).toFixed(1)} KB gzip`);
    console.log(
      `  total: ${totalRaw.toFixed(1)} KB raw, ${totalGzip.toFixed(1)} KB gzip (target <= ${TARGET_KB} KB) ${totalGzip <= TARGET_KB ? 'OK' : 'OVER'}`,
    );
    for (const [profile, values] of Object.entries(lcp)) {
      const m = median(values);
      console.log(
        `LCP ${profile}: median ${m.toFixed(0)} ms over ${values.length} cold loads [${values.map((v) => v.toFixed(0)).join(', ')}] (target <= ${TARGET_LCP_MS} ms) ${m <= TARGET_LCP_MS ? 'OK' : 'OVER'}`,
      );
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
