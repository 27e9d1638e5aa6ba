import type { AdminAction, JobStatus, OperationId } from '@ai-editor/core';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** One row per job: the job record (docs/product.md#records) plus owner, parameters, file keys and timestamps. */
export const images = pgTable(
  'images',
  {
    id: serial('id').primaryKey(),
    operation: text('operation').$type<OperationId>().notNull(),
    /** Three values: pending, completed, failed (docs/product.md#records). Finer stages live in metadata. */
    status: text('status').$type<JobStatus>().notNull().default('pending'),
    /** Guests own jobs through their session; signed-in users through their uid. */
    ownerSession: text('owner_session').notNull(),
    ownerUid: text('owner_uid'),
    parameters: jsonb('parameters').$type<Record<string, unknown>>().notNull().default({}),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /** Storage keys of the inputs (absent for prompt-only operations) and of the results, in order. */
    originalKey: text('original_key'),
    maskKey: text('mask_key'),
    file2Key: text('file2_key'),
    resultKeys: jsonb('result_keys').$type<string[]>().notNull().default([]),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** Set when the retention sweep deleted the files. */
    purgedAt: timestamp('purged_at', { withTimezone: true }),
    /** A chained job: the job (and which of its results) whose output became this job's photo. */
    sourceImageId: integer('source_image_id').references((): AnyPgColumn => images.id, { onDelete: 'set null' }),
    sourceIndex: integer('source_index'),
    /** Submitted with this API key; its webhook (if any) is signed with the key's secret. */
    apiKeyId: integer('api_key_id').references((): AnyPgColumn => apiKeys.id, { onDelete: 'set null' }),
    webhookUrl: text('webhook_url'),
    /** The uploaded photo's size, for the admin page's failures. */
    inputWidth: integer('input_width'),
    inputHeight: integer('input_height'),
    inputBytes: integer('input_bytes'),
    /** The worker process and engine host that ran the job ("host-pid/enginePid"). */
    engineHost: text('engine_host'),
    /** What the server logged about a failure (the visitor sees metadata.error only). */
    failureReason: text('failure_reason'),
  },
  (t) => [
    index('images_status_idx').on(t.status),
    index('images_created_idx').on(t.createdAt).where(sql`${t.purgedAt} is null`),
    // "My images": a visitor's jobs, newest first (signed-in users by uid, guests by session).
    index('images_owner_uid_idx').on(t.ownerUid, t.id),
    index('images_owner_session_idx').on(t.ownerSession, t.id),
    index('images_updated_idx').on(t.updatedAt),
  ],
);

export type ImageRow = typeof images.$inferSelect;

/** Messages sent through the contact page. */
export const contactMessages = pgTable('contact_messages', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  message: text('message').notNull(),
  clientIp: text('client_ip'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A visitor's session bound to the signed-in user (docs/product.md#sessions): set at sign-in, deleted at sign-out. */
export const sessionBindings = pgTable(
  'session_bindings',
  {
    sessionId: text('session_id').primaryKey(),
    uid: text('uid').notNull(),
    /** The profile from the ID token at sign-in, for `GET /api/me`. */
    email: text('email'),
    name: text('name'),
    picture: text('picture'),
    /** The token said the email is verified (only such emails can be ADMIN_EMAILS's). */
    emailVerified: boolean('email_verified').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('session_bindings_uid_idx').on(t.uid)],
);

/** Accepted submissions per signed-in user, operation and UTC day; counted atomically against the daily limit. */
export const usageCounters = pgTable(
  'usage_counters',
  {
    uid: text('uid').notNull(),
    operation: text('operation').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.uid, t.operation, t.day] })],
);

/** Which counter a job was charged to; `refundedAt` marks the one give-back of a failed job. */
export const usageCharges = pgTable('usage_charges', {
  imageId: integer('image_id')
    .primaryKey()
    .references(() => images.id, { onDelete: 'cascade' }),
  uid: text('uid').notNull(),
  operation: text('operation').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  chargedAt: timestamp('charged_at', { withTimezone: true }).notNull().defaultNow(),
  refundedAt: timestamp('refunded_at', { withTimezone: true }),
});

/**
 * Personal API keys: `Authorization: Bearer aie_…` acts as the user. Only the key's SHA-256 is kept (it is 256 random
 * bits); it is found by its prefix and compared in constant time. The webhook secret signs the key's webhooks, so
 * the server keeps it. A revoked key keeps its row (its jobs' webhooks are still signed) and no longer signs in.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    uid: text('uid').notNull(),
    name: text('name').notNull(),
    /** `aie_` and the next 8 characters of the key: shown in the list and used to find it. */
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    webhookSecret: text('webhook_secret').notNull(),
    /** The creator's profile, for `GET /api/me` with the key. */
    email: text('email'),
    displayName: text('display_name'),
    picture: text('picture'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_prefix_idx').on(t.prefix), index('api_keys_uid_idx').on(t.uid, t.id)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/**
 * One webhook message per job outcome (Standard Webhooks): its body as signed, and where its delivery stands. Kept
 * in the database so that retries (with backoff, for a day) survive restarts and any process may send them.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** The webhook-id header, the same on every retry. */
    id: text('id').primaryKey(),
    imageId: integer('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    apiKeyId: integer('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    url: text('url').notNull(),
    /** The exact body sent (the signature covers these bytes). */
    payload: text('payload').notNull(),
    /** pending (to be sent, or retried at nextAttemptAt), delivered, or failed (retries exhausted). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_image_event_idx').on(t.imageId, t.event),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  ],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
/** Every account that has signed in, for the admin page's Accounts; `blockedAt` set while it is suspended. */
export const accounts = pgTable(
  'accounts',
  {
    uid: text('uid').primaryKey(),
    email: text('email'),
    emailVerified: boolean('email_verified').notNull().default(false),
    name: text('name'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    blockedAt: timestamp('blocked_at', { withTimezone: true }),
    /** The administrator's uid. */
    blockedBy: text('blocked_by'),
  },
  (t) => [index('accounts_email_idx').on(sql`lower(${t.email})`)],
);

export type AccountRow = typeof accounts.$inferSelect;

/** Every administrator action: who, what, on which target, when. */
export const adminAudit = pgTable('admin_audit', {
  id: serial('id').primaryKey(),
  actorUid: text('actor_uid').notNull(),
  actorEmail: text('actor_email'),
  /** One of core's ADMIN_ACTIONS: cancel-job, block-account, unblock-account. */
  action: text('action').$type<AdminAction>().notNull(),
  /** e.g. job:42, account:<uid>. */
  target: text('target').notNull(),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * `Idempotency-Key`s of job submissions, per owner (a uid, or a guest's session), kept 24 hours: a repeated key
 * answers with the job it made. `imageId` is null while the first request holding the key is still being handled.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    owner: text('owner').notNull(),
    key: text('key').notNull(),
    /** A hash of the submission (operation, fields, files), to tell a retry from a different request. */
    fingerprint: text('fingerprint').notNull(),
    imageId: integer('image_id').references(() => images.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.owner, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
