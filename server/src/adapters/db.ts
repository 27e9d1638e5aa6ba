import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from '../db/schema.js';
import { StartupError } from '../startup-errors.js';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('../db/migrations', import.meta.url));

/**
 * Opens the database: node-postgres when a URL is given, else PGlite (PostgreSQL in WebAssembly) with its files
 * under the data directory. Both run the same migrations at start.
 */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<DatabaseHandle> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(path.join(opts.dataDir, 'db'));
}

async function openPglite(dir: string): Promise<DatabaseHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  fs.mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir);
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    ping: () => ping(db as unknown as Database),
    close: () => client.close(),
  };
}

/** Serialises migrations across processes that start together. */
const MIGRATION_LOCK = 728_341;

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client losing its connection (a PostgreSQL restart) must not crash the process; the pool reconnects.
  pool.on('error', (err) => console.error('PostgreSQL connection lost:', err.message));
  const lockClient = await pool.connect().catch(async (err: NodeJS.ErrnoException) => {
    await pool.end().catch(() => {});
    throw new StartupError(
      `cannot connect to the database at ${where(url)} (DATABASE_URL): ${err.message || err.code}`,
    );
  });
  try {
    await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate(drizzle(lockClient, { schema }), { migrationsFolder });
  } finally {
    await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    lockClient.release();
  }
  const db = drizzle(pool, { schema }) as unknown as Database;
  return { db, kind: 'postgres', ping: () => ping(db), close: () => pool.end() };
}

/** Host, port and database of a connection URL, without the password. */
function where(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}${u.pathname}`;
}

async function ping(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
