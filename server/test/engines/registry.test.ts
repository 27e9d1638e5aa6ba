import { getOperation, OPERATIONS } from '@ai-editor/core';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { hasLocalEngine, LOCAL_ENGINES, loadLocalEngine } from '../../src/engines/local-engines.js';
import { createEngineRegistry } from '../../src/engines/registry.js';
import { DEFAULT_MODELS } from '../../src/engines/replicate/models.js';
import type { LocalEngine } from '../../src/engines/types.js';

describe('the engine registry', () => {
  it('has, for every operation of the catalogue, a local engine or a built-in Replicate model', () => {
    for (const op of OPERATIONS) {
      expect(hasLocalEngine(op.id) || Object.hasOwn(DEFAULT_MODELS, op.id), op.id).toBe(true);
    }
    expect(Object.keys(LOCAL_ENGINES).sort()).toEqual(OPERATIONS.map((op) => op.id).sort());
  });

  it('is checked by the typecheck: another operation\'s engine, or "provider" where Replicate has no model, fail it', () => {
    // @ts-expect-error the denoising line cannot load the HDR engine
    const wrongEngine: (typeof LOCAL_ENGINES)['denoising'] = () => import('../../src/engines/local/hdr-enhancement.js');
    // @ts-expect-error denoising has no built-in Replicate model to fall back on
    const noProvider: (typeof LOCAL_ENGINES)['denoising'] = 'provider';
    // Checked by `npx tsc -b` (an unused @ts-expect-error fails it); at run time only the real line is compared.
    const provider: (typeof LOCAL_ENGINES)['colorization'] = 'provider';
    expect(LOCAL_ENGINES.colorization).toBe(provider);
    expect(LOCAL_ENGINES.denoising).not.toBe(noProvider);
    expect(LOCAL_ENGINES.denoising).not.toBe(wrongEngine);
  });

  it("loads each local engine from its module, made for that operation's catalogue entry", async () => {
    for (const op of OPERATIONS.filter((o) => hasLocalEngine(o.id))) {
      const engine = (await loadLocalEngine(op.id)) as LocalEngine;
      expect(engine.operation, op.id).toBe(op.id);
      expect(typeof engine.run).toBe('function');
    }
  });

  it('runs every local engine locally by default, and turns provider-only tools off without a token', () => {
    const registry = createEngineRegistry(loadConfig({}));
    for (const binding of registry.all()) {
      if (hasLocalEngine(binding.operation)) {
        expect(binding).toEqual({ operation: binding.operation, kind: 'local', module: binding.operation });
      } else {
        expect(binding, binding.operation).toMatchObject({ kind: 'off' });
        if (binding.kind === 'off') expect(binding.reason).toContain('REPLICATE_API_TOKEN');
      }
    }
    expect(registry.binding('colorization').kind).toBe('off');
    expect(getOperation('colorization').status).toBe('working');
  });
});
