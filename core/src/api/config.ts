import { z } from 'zod';

/** The Firebase web settings the browser needs (public by design), read at run time from the server. */
export const firebaseWebConfigSchema = z.object({
  apiKey: z.string(),
  authDomain: z.string(),
  projectId: z.string(),
  storageBucket: z.string().optional(),
  messagingSenderId: z.string().optional(),
  appId: z.string().optional(),
  measurementId: z.string().optional(),
});
export type FirebaseWebConfig = z.infer<typeof firebaseWebConfigSchema>;

/** How this deployment signs people in. */
export const publicAuthConfigSchema = z.object({
  mode: z.enum(['emulator', 'firebase']),
  firebase: firebaseWebConfigSchema,
  /** Set in emulator mode: the local Firebase Auth emulator the popup talks to. */
  emulatorUrl: z.string().nullable(),
});
export type PublicAuthConfig = z.infer<typeof publicAuthConfigSchema>;

/** `GET /api/config`: the settings in force on this server, read by the web app at start. */
export const clientConfigSchema = z.object({
  limits: z.object({
    maxUploadBytes: z.number().int(),
    maxInputPixels: z.number().int(),
    maxOutputPixels: z.number().int(),
    dailyUsesPerOperation: z.number().int(),
    guestOperation: z.string(),
    pollIntervalToolMs: z.number().int(),
    pollIntervalResultMs: z.number().int(),
    pendingProgressPercent: z.number(),
    retentionHours: z.number(),
  }),
  socialLinks: z.object({ code: z.string(), microblog: z.string(), professional: z.string() }),
  ads: z.object({ client: z.string().optional(), slot: z.string().optional() }),
  downloadsEnabled: z.boolean(),
  auth: publicAuthConfigSchema,
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
