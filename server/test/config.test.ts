import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { loadScaleOutConfig } from '../src/config-scale-out.js';

describe('settings from the environment', () => {
  it('uses the embedded defaults when nothing is set, and treats an empty value as unset', () => {
    for (const config of [loadConfig({}), loadConfig({ PORT: '', TRUST_PROXY: '', DOWNLOADS_ENABLED: '' })]) {
      expect(config.port).toBe(5000);
      expect(config.trustProxy).toBe(false);
      expect(config.downloadsEnabled).toBe(true);
      expect(config.jobTimeoutMs).toBe(300_000);
      expect(config.guestRateLimit).toEqual({ max: 20, windowMs: 600_000 });
      expect(config.scaleOut).toMatchObject({ queuePrefix: 'ai-editor', runEngines: true, workerLockMs: 30_000 });
    }
  });

  it('finds the models `npm install` prepared when DATA_DIR is set only at start', () => {
    // This checkout's install prepared them in its data/models (the tests' model cache).
    const installed = path.resolve(import.meta.dirname, '../../data/models');
    expect(fs.readdirSync(installed).some((f) => f.endsWith('.onnx'))).toBe(true);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-config-'));
    try {
      expect(loadConfig({ DATA_DIR: dataDir }).modelCacheDir).toBe(installed);
      // Models prepared in the data directory itself are its own; MODEL_CACHE_DIR always wins.
      fs.mkdirSync(path.join(dataDir, 'models'));
      fs.writeFileSync(path.join(dataDir, 'models', 'isnet-medium-fp32-v4.onnx'), '');
      expect(loadConfig({ DATA_DIR: dataDir }).modelCacheDir).toBe(path.join(dataDir, 'models'));
      expect(loadConfig({ DATA_DIR: dataDir, MODEL_CACHE_DIR: '/srv/models' }).modelCacheDir).toBe('/srv/models');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('reads numbers and booleans by one rule in both the server and the scale-out settings', () => {
    const config = loadConfig({
      PORT: '0',
      JOB_TIMEOUT_MS: '1500',
      TRUST_PROXY: '1',
      DOWNLOADS_ENABLED: 'false',
      WORKER_CONCURRENCY: '3',
      RUN_ENGINES: 'true',
      REDIS_URL: 'redis://localhost:6379',
    });
    expect(config).toMatchObject({ port: 0, jobTimeoutMs: 1500, trustProxy: true, downloadsEnabled: false });
    expect(config.scaleOut).toMatchObject({ workerConcurrency: 3, runEngines: true });
    expect(loadScaleOutConfig({ S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: '0' }, { workerThreads: 1 }).s3).toMatchObject({
      forcePathStyle: false,
    });
  });

  it('stops with an error naming each variable that breaks its rule', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow('PORT must be a whole number, got "abc"');
    expect(() => loadConfig({ JOB_TIMEOUT_MS: '1.5' })).toThrow('JOB_TIMEOUT_MS must be a whole number');
    expect(() => loadConfig({ ENGINE_HOSTS: '0' })).toThrow('ENGINE_HOSTS must be at least 1, got "0"');
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow('TRUST_PROXY must be true or false, got "yes"');
    expect(() => loadConfig({ WORKER_CONCURRENCY: '-2', RUN_ENGINES: 'maybe' })).toThrow(
      /WORKER_CONCURRENCY must be at least 1, got "-2".*RUN_ENGINES must be true or false, got "maybe"/,
    );
  });

  it('takes ENGINE_<OPERATION> for operations of the catalogue only, and local, replicate or off only', () => {
    expect(loadConfig({ ENGINE_SUPER_RESOLUTION: 'off', ENGINE_DENOISING: 'replicate' }).engineChoice).toEqual({
      'super-resolution': 'off',
      denoising: 'replicate',
    });
    // The host settings share the prefix and are not operations.
    expect(loadConfig({ ENGINE_HOSTS: '2', ENGINE_PRELOAD: 'false' }).engineChoice).toEqual({});
    expect(() => loadConfig({ ENGINE_SUPER_RESOLUTON: 'off' })).toThrow(
      'Invalid setting: ENGINE_SUPER_RESOLUTON is not a setting: no operation has that name (did you mean ENGINE_SUPER_RESOLUTION?)',
    );
    expect(() => loadConfig({ ENGINE_DENOISING: 'of' })).toThrow(
      'ENGINE_DENOISING must be one of local, replicate, off, got "of"',
    );
  });
});

describe('the server start', () => {
  it('stops on a misspelt engine setting with one line naming it', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const main = new URL('../src/main.ts', import.meta.url).pathname;
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, ENGINE_SUPER_RESOLUTON: 'off', PORT: '0' },
      timeout: 120_000,
    });
    const err = (await run.then(
      () => undefined,
      (e: unknown) => e,
    )) as { code: number; stderr: string; stdout: string } | undefined;
    expect(err?.code).toBe(1);
    expect(err?.stderr.trim()).toBe(
      'Cannot start: Invalid setting: ENGINE_SUPER_RESOLUTON is not a setting: no operation has that name (did you mean ENGINE_SUPER_RESOLUTION?)',
    );
  }, 120_000);
});
