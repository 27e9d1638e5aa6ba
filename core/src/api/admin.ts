import { z } from 'zod';
import { plainText } from '../text.js';
import { jobStatusSchema } from './images.js';

/**
 * The admin page's API (`/api/admin/…`): only accounts named by ADMIN_EMAILS may call it; everyone else, guests
 * included, gets 403 `ADMIN_ONLY`.
 */

/**
 * Every administrator action: the route it is posted to (its `:param` names what it acts on) and the name the
 * audit log records. A new action is one entry here, its route and its AdminService method.
 */
export const ADMIN_ACTIONS = {
  'cancel-job': { route: '/api/admin/jobs/:id/cancel' },
  'block-account': { route: '/api/admin/users/:uid/block' },
  'unblock-account': { route: '/api/admin/users/:uid/unblock' },
} as const;

export type AdminAction = keyof typeof ADMIN_ACTIONS;
export const ADMIN_ACTION_NAMES = Object.keys(ADMIN_ACTIONS) as [AdminAction, ...AdminAction[]];

/** `GET /api/admin/jobs?status=&operation=&uid=`: the newest jobs of every visitor. */
export const adminJobsQuery = z.object({
  status: z.enum(['waiting', 'running', 'pending', 'completed', 'failed']).optional(),
  operation: plainText().max(64).optional(),
  code: plainText().max(64).optional().describe('Failed jobs with this error code'),
  uid: plainText().max(128).optional().describe("One account's jobs"),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const adminJobSchema = z.object({
  id: z.number().int(),
  operation: z.string(),
  status: jobStatusSchema,
  /** waiting (not started yet) or running; null once finished. */
  phase: z.enum(['waiting', 'running']).nullable(),
  owner: z.object({ uid: z.string().nullable(), email: z.string().nullable(), guest: z.boolean() }),
  createdAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  completedAt: z.iso.datetime().nullable(),
  ageMs: z.number().int(),
  stage: z.string().nullable(),
  percent: z.number().nullable(),
  /** The worker process and engine host that ran it ("host-pid/enginePid"). */
  engineHost: z.string().nullable(),
  errorCode: z.string().nullable(),
  error: z.string().nullable(),
  /** What the server logged about the failure (never shown to the visitor). */
  reason: z.string().nullable(),
  photo: z.object({ width: z.number().int(), height: z.number().int(), bytes: z.number().int() }).nullable(),
});
export type AdminJob = z.infer<typeof adminJobSchema>;
export const adminJobListSchema = z.object({ jobs: z.array(adminJobSchema) });
export type AdminJobList = z.infer<typeof adminJobListSchema>;

/** One engine host of one process (the API's on the embedded defaults, each worker's in scale-out). */
export const adminHostSchema = z.object({
  pid: z.number().int().nullable(),
  ready: z.boolean(),
  busy: z.boolean(),
  rssMb: z.number(),
  loaded: z.array(z.string()),
});
export const adminEnginesSchema = z.object({
  processes: z.array(
    z.object({
      name: z.string(),
      reportedAt: z.iso.datetime(),
      memoryBudgetMb: z.number(),
      replaced: z.number().int(),
      hosts: z.array(adminHostSchema),
    }),
  ),
  operations: z.array(
    z.object({
      operation: z.string(),
      name: z.string(),
      engine: z.string().nullable(),
      loaded: z.boolean(),
      jobsLastHour: z.number().int(),
      /** Over the last 24 hours, completed jobs, from the engine's start to the result. */
      p50Ms: z.number().nullable(),
      p95Ms: z.number().nullable(),
    }),
  ),
});
export type AdminEngines = z.infer<typeof adminEnginesSchema>;

export const adminUsageSchema = z.object({
  days: z.array(z.object({ day: z.string(), operation: z.string(), jobs: z.number().int() })),
  distinctUsers: z.number().int(),
  topUsers: z.array(z.object({ uid: z.string(), email: z.string().nullable(), jobs: z.number().int() })),
});
export type AdminUsage = z.infer<typeof adminUsageSchema>;

export const adminAccountSchema = z.object({
  uid: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  lastSeenAt: z.iso.datetime(),
  blockedAt: z.iso.datetime().nullable(),
  jobs: z.number().int(),
});
export type AdminAccount = z.infer<typeof adminAccountSchema>;
export const adminAccountsQuery = z.object({ email: plainText().max(320).default('') });
export const adminAccountListSchema = z.object({ accounts: z.array(adminAccountSchema) });
export const adminUidParams = z.object({ uid: plainText().min(1).max(128) });
export const adminBlockResultSchema = z.object({
  account: adminAccountSchema,
  /** Waiting jobs of the account that the block cancelled. */
  cancelledJobs: z.array(z.number().int()),
});

export const adminAuditSchema = z.object({
  entries: z.array(
    z.object({
      id: z.number().int(),
      actorUid: z.string(),
      actorEmail: z.string().nullable(),
      action: z.enum(ADMIN_ACTION_NAMES),
      target: z.string(),
      at: z.iso.datetime(),
    }),
  ),
});
export type AdminAudit = z.infer<typeof adminAuditSchema>;
