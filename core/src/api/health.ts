import { z } from 'zod';

const part = z.looseObject({ ok: z.boolean(), kind: z.string() });

export const engineHealthSchema = z.object({
  operation: z.string(),
  /** The operation's display name. */
  name: z.string(),
  engine: z.string().nullable().describe("'local', the provider's name, or null when off"),
  available: z.boolean(),
  loaded: z.boolean(),
  reason: z.string().optional(),
});
export type EngineHealth = z.infer<typeof engineHealthSchema>;

/** `GET /api/health`: the live state of every part (the same body with 503 when a part is down). */
export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: part,
  storage: part.extend({
    writable: z.boolean(),
    freeBytes: z.number().optional(),
    minFreeBytes: z.number().optional(),
    reason: z.string().optional(),
  }),
  queue: part.extend({ waiting: z.number().int(), active: z.number().int() }),
  engineHosts: z
    .object({
      hosts: z.number().int(),
      busy: z.number().int(),
      /** Jobs waiting for a free host. */
      waiting: z.number().int(),
      /** Hosts ended and replaced since the pool started. */
      replaced: z.number().int(),
      memoryBudgetMb: z.number(),
      rssMb: z.array(z.number()),
      pids: z.array(z.number().int()),
    })
    .nullable()
    .optional()
    .describe(
      "This process's engine hosts (null in an API process of a scale-out deployment: its workers have them); " +
        'with the storage free space, shown to operators only (X-Health-Token)',
    ),
  engines: z.array(engineHealthSchema),
  unavailable: z.array(z.string()),
});
export type Health = z.infer<typeof healthSchema>;
