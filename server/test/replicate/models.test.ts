// Every value our catalogue allows must map to an input the model's published schema accepts.
import { getOperation, type OperationId, type ParamDef, type Params, parseParams } from '@ai-editor/core';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { parseModelRef } from '../../src/engines/replicate/model-ref.js';
import {
  DEFAULT_MODELS,
  hasReplicateMapping,
  resolveMapping,
  STYLE_STRENGTH_RANGE,
  styleStrengthRatio,
} from '../../src/engines/replicate/models.js';
import { loadSchemas } from './standin.js';

const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addFormat('uri', (s: string) => /^(https?:\/\/\S+|data:[\w/+.-]+;base64,[A-Za-z0-9+/=]+)$/.test(s));
const schemas = new Map(
  loadSchemas().map((s) => [s.version, ajv.compile({ ...s.input, additionalProperties: false })]),
);
const config = { ...loadConfig({}), replicateApiToken: 'r8_x', replicateModels: {}, replicateInputs: {} };
const FILES = {
  image: 'https://files.example/a.png',
  image2: 'https://files.example/b.png',
  mask: 'data:image/png;base64,AA==',
};

/** Defaults, then each parameter at each end of its range / each of its choices, one at a time. */
function variants(op: OperationId): Params[] {
  const operation = getOperation(op);
  const base: Record<string, unknown> = operation.input === 'prompt' ? { prompt: 'a cat on a roof' } : {};
  const edges = (def: ParamDef): unknown[] => {
    switch (def.kind) {
      case 'number':
        return [def.min, def.max, def.default];
      case 'select':
        return def.options.map((o) => o.value);
      case 'boolean':
        return [true, false];
      case 'text':
        return def.required ? [] : ['', def.default];
    }
  };
  const out = [parseParams(operation, base)];
  for (const def of operation.params) {
    for (const v of edges(def)) out.push(parseParams(operation, { ...base, [def.name]: String(v) }));
  }
  return out;
}

describe('Replicate model mappings', () => {
  it.each(Object.keys(DEFAULT_MODELS) as (keyof typeof DEFAULT_MODELS)[])(
    '%s: every catalogue value passes the model’s committed input schema',
    (op) => {
      const mapping = resolveMapping(op, config);
      const validate = schemas.get(mapping.model.version ?? '');
      expect(validate, `schema for ${op}`).toBeDefined();
      for (const params of variants(op)) {
        const input = mapping.buildInput(FILES, params);
        const ok = validate?.(input);
        expect(validate?.errors ?? [], JSON.stringify(input)).toEqual([]);
        expect(ok).toBe(true);
      }
    },
  );

  it('maps the 1–100 style strength onto PhotoMaker’s 15–50, monotonically and never out of range', () => {
    let previous = 0;
    for (let s = 1; s <= 100; s++) {
      const r = styleStrengthRatio(s);
      expect(r).toBeGreaterThanOrEqual(STYLE_STRENGTH_RANGE.min);
      expect(r).toBeLessThanOrEqual(STYLE_STRENGTH_RANGE.max);
      expect(r).toBeGreaterThanOrEqual(previous);
      previous = r;
    }
    expect([styleStrengthRatio(1), styleStrengthRatio(35), styleStrengthRatio(100)]).toEqual([15, 27, 50]);
    expect([styleStrengthRatio(-5), styleStrengthRatio(500), styleStrengthRatio(Number.NaN)]).toEqual([15, 50, 15]);
  });

  it('reads owner/name[:version] and refuses anything else', () => {
    expect(parseModelRef('piddnad/ddcolor')).toEqual({ owner: 'piddnad', name: 'ddcolor', version: undefined });
    expect(parseModelRef(DEFAULT_MODELS.text2img).version).toHaveLength(64);
    for (const bad of ['ddcolor', 'a/b:123', 'a/b/c', 'a b/c']) expect(() => parseModelRef(bad)).toThrow();
  });

  it('says which operations a server can run on Replicate', () => {
    expect(hasReplicateMapping('text2img', config)).toBe(true);
    expect(hasReplicateMapping('face-swap', config)).toBe(true);
    expect(hasReplicateMapping('denoising', config)).toBe(false);
    expect(hasReplicateMapping('denoising', { ...config, replicateModels: { denoising: 'a/b' } })).toBe(true);
    expect(hasReplicateMapping('text2img', { ...config, replicateApiToken: undefined })).toBe(false);
  });

  it('reads REPLICATE_MODEL_* and REPLICATE_INPUT_* per operation from the environment', () => {
    const c = loadConfig({
      REPLICATE_MODEL_TEXT_TO_IMAGE_DIFFUSION: 'a/b',
      REPLICATE_INPUT_OBJECT_REMOVAL: '{"image":"$image","mask":"$mask"}',
    });
    expect(c.replicateModels).toEqual({ 'text-to-image-diffusion': 'a/b' });
    expect(c.replicateInputs).toEqual({ 'object-removal': '{"image":"$image","mask":"$mask"}' });
    const m = resolveMapping('object-removal', { ...config, replicateModels: { 'object-removal': 'a/b' } });
    expect(m.files).toEqual(['image', 'mask']);
    expect(m.buildInput({ image: 'u1' }, {})).toEqual({ image: 'u1' }); // no mask painted: the key is left out
  });
});
