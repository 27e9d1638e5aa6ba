import { z } from 'zod';
import { AppError } from './errors.js';
import {
  COLOR_PATTERN,
  type NumberParam,
  type Operation,
  type OperationId,
  type ParamDef,
  type ParamsOf,
  type TextParam,
} from './operations.js';
import { plainText } from './text.js';

export type ParamValue = string | number | boolean;
export type Params = Record<string, ParamValue>;

function countWord(text: string, word: string): number {
  return text.match(new RegExp(`\\b${word}\\b`, 'g'))?.length ?? 0;
}

/** Multipart fields arrive as strings, JSON clients may send numbers and booleans: accept both. */
function schemaFor(def: ParamDef): z.ZodType<ParamValue> {
  switch (def.kind) {
    case 'text':
      return plainText('text without control characters').max(def.maxLength, `at most ${def.maxLength} characters`);
    case 'number':
      return numberSchema(def);
    case 'boolean':
      return z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], {
        error: 'true or false',
      });
    case 'select': {
      const values = def.options.map((o) => o.value);
      const error = `one of ${values.join(', ')}${def.color ? ' or a colour #rrggbb' : ''}`;
      const options = z.enum(values as [string, ...string[]], { error });
      return def.color ? z.union([options, z.string().regex(new RegExp(COLOR_PATTERN), error)], { error }) : options;
    }
  }
}

function numberSchema(def: NumberParam) {
  return z.coerce
    .number({ error: 'a number' })
    .refine((n) => Number.isFinite(n), 'a number')
    .refine((n) => n >= def.min && n <= def.max, `between ${def.min} and ${def.max}`)
    .refine((n) => isOnStep(n, def), `a multiple of ${def.step} from ${def.min}`);
}

function isOnStep(n: number, def: NumberParam): boolean {
  const steps = (n - def.min) / def.step;
  return Math.abs(steps - Math.round(steps)) < 1e-9;
}

/** Rules on text that are not about shape: the required prompt and style transfer's `img` word. */
function checkText(def: TextParam, value: string): void {
  if (def.required && value.trim() === '') throw new AppError('PROMPT_REQUIRED');
  if (def.mustContainWordOnce && countWord(value, def.mustContainWordOnce) !== 1) {
    throw new AppError('PROMPT_IMG_KEYWORD');
  }
}

/**
 * Checks an operation's fields against the catalogue: unknown fields and out-of-range values are refused with a
 * 400 naming the field; missing fields take their defaults. The same function runs in the browser and the server.
 */
export function parseParams<Id extends OperationId>(op: Operation<Id>, fields: Record<string, unknown>): ParamsOf<Id> {
  const known = new Set(op.params.map((p) => p.name));
  for (const name of Object.keys(fields)) {
    if (!known.has(name)) throw new AppError('INVALID_PARAMETER', { field: name, reason: 'unknown field' });
  }
  const params: Params = {};
  for (const def of op.params) {
    const raw = fields[def.name];
    const value = raw === undefined || raw === '' ? (def.kind === 'text' ? (raw ?? def.default) : def.default) : raw;
    const parsed = schemaFor(def).safeParse(value);
    if (!parsed.success) {
      const reason = parsed.error.issues[0]?.message ?? 'invalid';
      throw new AppError('INVALID_PARAMETER', { field: def.name, reason: `must be ${reason}` });
    }
    if (def.kind === 'text') checkText(def, parsed.data as string);
    params[def.name] = parsed.data;
  }
  // Each value was checked against its definition above: the object has the operation's parameter types.
  return params as ParamsOf<Id>;
}

/** The catalogue defaults, as the tool page starts with them. */
export function defaultParams(op: Operation): Params {
  return Object.fromEntries(op.params.map((p) => [p.name, p.default]));
}
