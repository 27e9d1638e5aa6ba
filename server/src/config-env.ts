import { z } from 'zod';
import { StartupError } from './startup-errors.js';

/**
 * The one set of rules for reading settings from the environment (config.ts, config-scale-out.ts): an empty value
 * counts as unset; numbers are whole and not negative (some must be at least 1); booleans are true/false or 1/0.
 * A value that breaks a rule stops the start with an error naming the variable.
 */
const unsetIfEmpty = (v: unknown) => (v === '' ? undefined : v);

export const env = {
  /** Text, unset when empty. */
  text: () => z.preprocess(unsetIfEmpty, z.string().optional()),
  /** A whole number, at least `min` (0 unless given). */
  whole: (min = 0) =>
    z.preprocess(
      unsetIfEmpty,
      z.coerce
        .number({ error: 'must be a whole number' })
        .int({ error: 'must be a whole number' })
        .min(min, { error: `must be at least ${min}` })
        .optional(),
    ),
  bool: () =>
    z.preprocess(
      unsetIfEmpty,
      z.stringbool({ truthy: ['true', '1'], falsy: ['false', '0'], error: 'must be true or false' }).optional(),
    ),
  /** A PostgreSQL connection URL (postgres:// or postgresql://), unset when empty. */
  postgresUrl: () =>
    z.preprocess(
      unsetIfEmpty,
      z
        .string()
        .refine(isPostgresUrl, 'must be a PostgreSQL URL such as postgres://user:password@host:5432/database')
        .optional(),
    ),
  oneOf: <const T extends readonly [string, ...string[]]>(values: T) =>
    z.preprocess(unsetIfEmpty, z.enum(values, { error: `must be one of ${values.join(', ')}` }).optional()),
};

function isPostgresUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Reads the variables `shape` names; throws one error listing every variable that breaks its rule. */
export function parseEnv<S extends z.ZodRawShape>(shape: S, source: NodeJS.ProcessEnv): z.output<z.ZodObject<S>> {
  const parsed = z.object(shape).safeParse(source);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0]);
    return `${name} ${issue.message}, got "${source[name]}"`;
  });
  throw new StartupError(`Invalid setting: ${lines.join('; ')}`);
}
