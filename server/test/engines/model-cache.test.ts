/**
 * The model cache (engines/models/model-cache.ts): a model missing from the cache is made once, written whole, and
 * its preparation is logged with its time, since the job that needs it waits for it; a cached one is read as is.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cachedModel, modelCacheDir, setModelCacheDir } from '../../src/engines/models/model-cache.js';

describe('the model cache', () => {
  const before = modelCacheDir();
  afterEach(() => {
    setModelCacheDir(before);
    vi.restoreAllMocks();
  });

  it('prepares a missing model once, saying so and how long it took; later calls find it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-models-'));
    setModelCacheDir(dir);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const make = vi.fn(() => new Uint8Array([1, 2, 3]));
    try {
      const file = cachedModel('Test', 'test.onnx', make);
      expect(file).toBe(path.join(dir, 'test.onnx'));
      expect([...fs.readFileSync(file)]).toEqual([1, 2, 3]);
      expect(log.mock.calls.map((c) => String(c[0]))).toEqual([
        `preparing the Test model in ${dir} (once: it is kept there)`,
        expect.stringMatching(new RegExp(`^prepared the Test model in \\d+\\.\\d s: ${file}$`)),
      ]);
      expect(cachedModel('Test', 'test.onnx', make)).toBe(file);
      expect(make).toHaveBeenCalledTimes(1);
      expect(log).toHaveBeenCalledTimes(2);
      expect(fs.readdirSync(dir)).toEqual(['test.onnx']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
