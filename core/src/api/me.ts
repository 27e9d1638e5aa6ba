import { z } from 'zod';
import { OPERATION_IDS } from '../operations.js';

export const userTypeSchema = z.enum(['guest', 'authenticated']);
export type UserType = z.infer<typeof userTypeSchema>;

/** One operation's uses today (limit null: not counted, e.g. a guest's). */
export const operationUsageSchema = z.object({
  allowed: z.boolean(),
  used: z.number().int(),
  limit: z.number().int().nullable(),
  left: z.number().int().nullable(),
});
export type OperationUsage = z.infer<typeof operationUsageSchema>;

/** `GET /api/me` (and the answer to sign-in and sign-out): who the visitor is and what they may do today. */
export const meSchema = z.object({
  user: z
    .object({
      uid: z.string(),
      name: z.string().nullable(),
      email: z.string().nullable(),
      photoURL: z.string().nullable(),
    })
    .nullable(),
  type: userTypeSchema,
  canDownload: z.boolean(),
  /** The account is one ADMIN_EMAILS names: the account menu links to the admin page. */
  admin: z.boolean(),
  /** An administrator blocked the account: its other requests are refused (ACCOUNT_SUSPENDED), sign-out works. */
  suspended: z.boolean(),
  usage: z.partialRecord(z.enum(OPERATION_IDS), operationUsageSchema),
  /** When today's uses reset (next midnight UTC). */
  resetsAt: z.iso.datetime().nullable().describe("When today's uses reset (next midnight UTC)"),
});
export type Me = z.infer<typeof meSchema>;

/** `POST /api/session`: the popup's Firebase ID token (or none, with the token as `Authorization: Bearer`). */
export const signInBody = z
  .object({ idToken: z.string().min(1).max(16_384).optional() })
  .strict()
  .nullable();
