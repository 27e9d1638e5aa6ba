import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/** One row per job: the job record (docs/product.md#records) plus owner, parameters, file keys and timestamps. */
export const images = pgTable(
  'images',
  {
    id: serial('id').primaryKey(),
    operation: text('operation').notNull(),
    /** Three values: pending, completed, failed (docs/product.md#records). Finer stages live in metadata. */
    status: text('status').notNull().default('pending'),
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
  },
  (t) => [
    index('images_status_idx').on(t.status),
    index('images_created_idx').on(t.createdAt).where(sql`${t.purgedAt} is null`),
    // "My images": a visitor's jobs, newest first (signed-in users by uid, guests by session).
    index('images_owner_uid_idx').on(t.ownerUid, t.id),
    index('images_owner_session_idx').on(t.ownerSession, t.id),
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
