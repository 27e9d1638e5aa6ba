import type { AdminAction } from '@ai-editor/core';
import { and, desc, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../adapters/db.js';
import { type AccountRow, accounts, adminAudit, type ImageRow, images } from '../db/schema.js';

export interface JobFilter {
  id?: number;
  /** waiting: pending and not started; running: pending and started. */
  status?: 'waiting' | 'running' | 'pending' | 'completed' | 'failed';
  operation?: string;
  code?: string;
  uid?: string;
  limit: number;
}

export type JobWithEmail = ImageRow & { ownerEmail: string | null };

export interface OperationTimes {
  operation: string;
  jobsLastHour: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

export interface UsageFigures {
  days: { day: string; operation: string; jobs: number }[];
  distinctUsers: number;
  topUsers: { uid: string; email: string | null; jobs: number }[];
}

export type AccountWithJobs = AccountRow & { jobs: number };

export interface AuditEntry {
  actorUid: string;
  actorEmail: string | null;
  action: AdminAction;
  target: string;
  detail?: Record<string, unknown>;
}

const started = sql`(${images.metadata} ->> 'startedAt')`;

/** The queries of the admin page: every visitor's jobs, figures over them, accounts and the audit log. */
export class AdminRepository {
  constructor(private readonly db: Database) {}

  async jobs(filter: JobFilter): Promise<JobWithEmail[]> {
    const where: (SQL | undefined)[] = [];
    if (filter.id !== undefined) where.push(eq(images.id, filter.id));
    if (filter.status === 'waiting') where.push(sql`${images.status} = 'pending' and ${started} is null`);
    else if (filter.status === 'running') where.push(sql`${images.status} = 'pending' and ${started} is not null`);
    else if (filter.status) where.push(eq(images.status, filter.status));
    // Any text from the admin's filter: an unknown operation simply matches nothing.
    if (filter.operation) where.push(sql`${images.operation} = ${filter.operation}`);
    if (filter.code) where.push(sql`${images.metadata} ->> 'errorCode' = ${filter.code}`);
    if (filter.uid) where.push(eq(images.ownerUid, filter.uid));
    const rows = await this.db
      .select({ image: images, ownerEmail: accounts.email })
      .from(images)
      .leftJoin(accounts, eq(accounts.uid, images.ownerUid))
      .where(and(...where))
      .orderBy(desc(images.id))
      .limit(filter.limit);
    return rows.map((r) => ({ ...r.image, ownerEmail: r.ownerEmail }));
  }

  /** Per operation: jobs created in the last hour; p50/p95 of completed jobs' run time over the last 24 hours. */
  async operationTimes(now = new Date()): Promise<OperationTimes[]> {
    const hourAgo = new Date(now.getTime() - 3600_000).toISOString();
    const dayAgo = new Date(now.getTime() - 24 * 3600_000).toISOString();
    const result = await this.db.execute(sql`
      select operation,
        count(*) filter (where created_at >= ${hourAgo})::int as last_hour,
        percentile_cont(0.5) within group (order by extract(epoch from completed_at - (metadata->>'startedAt')::timestamptz) * 1000)
          filter (where status = 'completed' and completed_at >= ${dayAgo} and metadata ? 'startedAt') as p50,
        percentile_cont(0.95) within group (order by extract(epoch from completed_at - (metadata->>'startedAt')::timestamptz) * 1000)
          filter (where status = 'completed' and completed_at >= ${dayAgo} and metadata ? 'startedAt') as p95
      from ${images} where created_at >= ${dayAgo} group by operation`);
    const { rows } = result as unknown as {
      rows: { operation: string; last_hour: number; p50: unknown; p95: unknown }[];
    };
    const ms = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v)));
    return rows.map((r) => ({
      operation: r.operation,
      jobsLastHour: Number(r.last_hour),
      p50Ms: ms(r.p50),
      p95Ms: ms(r.p95),
    }));
  }

  /** Jobs per UTC day and operation, distinct signed-in users and the top users, over the last `days` days. */
  async usage(days: number, now = new Date()): Promise<UsageFigures> {
    const since = new Date(now.getTime() - days * 24 * 3600_000).toISOString();
    const perDay = (await this.db.execute(sql`
      select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, operation, count(*)::int as jobs
      from ${images} where created_at >= ${since} group by 1, 2 order by 1, 2`)) as unknown as {
      rows: { day: string; operation: string; jobs: number }[];
    };
    const distinct = (await this.db.execute(sql`
      select count(distinct owner_uid)::int as n from ${images} where created_at >= ${since}`)) as unknown as {
      rows: { n: number }[];
    };
    const top = (await this.db.execute(sql`
      select i.owner_uid as uid, a.email as email, count(*)::int as jobs from ${images} i
      left join ${accounts} a on a.uid = i.owner_uid
      where i.created_at >= ${since} and i.owner_uid is not null
      group by i.owner_uid, a.email order by jobs desc, uid limit 10`)) as unknown as {
      rows: { uid: string; email: string | null; jobs: number }[];
    };
    return {
      days: perDay.rows.map((r) => ({ day: r.day, operation: r.operation, jobs: Number(r.jobs) })),
      distinctUsers: Number(distinct.rows[0]?.n ?? 0),
      topUsers: top.rows.map((r) => ({ uid: r.uid, email: r.email, jobs: Number(r.jobs) })),
    };
  }

  /** Records a signed-in account (at most now and then per process: see AccountGuard). */
  async seen(user: { uid: string; email?: string; emailVerified?: boolean; name?: string }): Promise<void> {
    const values = {
      uid: user.uid,
      email: user.email ?? null,
      emailVerified: user.emailVerified ?? false,
      name: user.name ?? null,
      lastSeenAt: new Date(),
    };
    await this.db
      .insert(accounts)
      .values(values)
      .onConflictDoUpdate({
        target: accounts.uid,
        set: {
          email: values.email,
          emailVerified: values.emailVerified,
          name: values.name,
          lastSeenAt: values.lastSeenAt,
        },
      });
  }

  /** Accounts whose email contains `query` (all, newest first, when empty), with their job counts. */
  async findAccounts(query: string, limit = 25): Promise<AccountWithJobs[]> {
    const q = query.trim().toLowerCase();
    const rows = await this.db
      .select({
        account: accounts,
        jobs: sql<number>`(select count(*)::int from ${images} where ${images.ownerUid} = ${accounts.uid})`,
      })
      .from(accounts)
      .where(q ? sql`strpos(lower(${accounts.email}), ${q}) > 0` : undefined)
      .orderBy(desc(accounts.lastSeenAt))
      .limit(limit);
    return rows.map((r) => ({ ...r.account, jobs: Number(r.jobs) }));
  }

  async account(uid: string): Promise<AccountWithJobs | undefined> {
    const [row] = await this.db
      .select({
        account: accounts,
        jobs: sql<number>`(select count(*)::int from ${images} where ${images.ownerUid} = ${accounts.uid})`,
      })
      .from(accounts)
      .where(eq(accounts.uid, uid));
    return row && { ...row.account, jobs: Number(row.jobs) };
  }

  /** Blocks (`by` an administrator) or unblocks an account that has signed in here; false when there is none. */
  async setBlocked(uid: string, by: string | null): Promise<boolean> {
    const blocked = { blockedAt: by ? new Date() : null, blockedBy: by };
    const rows = await this.db
      .update(accounts)
      .set(blocked)
      .where(eq(accounts.uid, uid))
      .returning({ uid: accounts.uid });
    return rows.length > 0;
  }

  async blockedUids(): Promise<string[]> {
    const rows = await this.db.select({ uid: accounts.uid }).from(accounts).where(isNotNull(accounts.blockedAt));
    return rows.map((r) => r.uid);
  }

  /** The pending jobs of an account, oldest first. */
  async pendingOf(uid: string): Promise<number[]> {
    const rows = await this.db
      .select({ id: images.id })
      .from(images)
      .where(and(eq(images.ownerUid, uid), eq(images.status, 'pending')))
      .orderBy(images.id);
    return rows.map((r) => r.id);
  }

  async audit(entry: AuditEntry): Promise<void> {
    await this.db.insert(adminAudit).values({ ...entry, detail: entry.detail ?? {} });
  }

  async auditLog(limit = 100) {
    return this.db.select().from(adminAudit).orderBy(desc(adminAudit.id)).limit(limit);
  }
}
