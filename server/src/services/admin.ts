import {
  type AdminAccount,
  type AdminAction,
  type AdminJob,
  AppError,
  getOperation,
  type JobStatus,
} from '@ai-editor/core';
import type { EnginePool } from '../adapters/engine-pool.js';
import type { HostBoard } from '../adapters/host-board.js';
import type { EngineRegistry } from '../engines/registry.js';
import type { Logger } from '../logging.js';
import type { AccountWithJobs, AdminRepository, JobFilter, JobWithEmail } from '../repositories/admin.js';
import type { JobService } from './jobs.js';

/** The administrator acting (for the audit log). */
export interface Actor {
  uid: string;
  email?: string;
}

export interface AdminDeps {
  repo: AdminRepository;
  jobs: JobService;
  registry: EngineRegistry;
  hosts: HostBoard;
  /** This process's pool, for "loaded" when no process reports its hosts (it runs engines itself). */
  pool?: EnginePool;
  log: Logger;
}

/** How often each process reloads the blocked accounts (a block made in another API process takes this long). */
const BLOCKED_REFRESH_MS = 5_000;
const USAGE_DAYS = 30;

/**
 * The operator's side: every visitor's jobs, failures, engines, usage and accounts; cancelling any job and
 * blocking accounts. Every action is written to the audit log.
 */
export class AdminService {
  private blocked = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly deps: AdminDeps) {
    this.timer = setInterval(() => void this.refreshBlocked(), BLOCKED_REFRESH_MS);
    this.timer.unref();
  }

  async start(): Promise<void> {
    await this.refreshBlocked();
  }

  close(): void {
    clearInterval(this.timer);
  }

  isBlocked(uid: string): boolean {
    return this.blocked.has(uid);
  }

  private async refreshBlocked(): Promise<void> {
    try {
      this.blocked = new Set(await this.deps.repo.blockedUids());
    } catch (err) {
      this.deps.log.warn({ err }, 'could not read the blocked accounts');
    }
  }

  async jobs(filter: JobFilter): Promise<AdminJob[]> {
    return (await this.deps.repo.jobs(filter)).map(jobView);
  }

  /** Cancels anyone's pending job through the owner's cancel path (the use goes back). */
  async cancel(actor: Actor, id: number): Promise<AdminJob> {
    await this.deps.jobs.cancel(id, 'any', `cancelled by the administrator ${who(actor)}`);
    await this.audit(actor, 'cancel-job', `job:${id}`);
    const [row] = await this.deps.repo.jobs({ id, limit: 1 });
    if (!row) throw new AppError('NOT_FOUND');
    return jobView(row);
  }

  async engines() {
    const [processes, times] = await Promise.all([this.deps.hosts.list(), this.deps.repo.operationTimes()]);
    const timesOf = new Map(times.map((t) => [t.operation, t]));
    const loadedModules = new Set(processes.flatMap((p) => p.hosts.flatMap((h) => h.loaded)));
    const operations = this.deps.registry.all().map((b) => {
      const t = timesOf.get(b.operation);
      return {
        operation: b.operation,
        name: getOperation(b.operation).name,
        engine: b.kind === 'off' ? null : b.kind === 'local' ? 'local' : b.name,
        loaded: b.kind === 'local' ? loadedModules.has(b.module) : b.kind === 'remote',
        jobsLastHour: t?.jobsLastHour ?? 0,
        p50Ms: t?.p50Ms ?? null,
        p95Ms: t?.p95Ms ?? null,
      };
    });
    return { processes, operations };
  }

  usage() {
    return this.deps.repo.usage(USAGE_DAYS);
  }

  async accounts(query: string): Promise<AdminAccount[]> {
    return (await this.deps.repo.findAccounts(query)).map(accountView);
  }

  /** Blocks an account: its requests get 403 'Account suspended' and its pending jobs are cancelled. */
  async block(actor: Actor, uid: string): Promise<{ account: AdminAccount; cancelledJobs: number[] }> {
    if (uid === actor.uid) throw new AppError('BAD_REQUEST', { reason: 'You cannot block your own account' });
    if (!(await this.deps.repo.setBlocked(uid, actor.uid))) throw new AppError('ACCOUNT_NOT_FOUND');
    this.blocked.add(uid);
    const cancelledJobs: number[] = [];
    for (const id of await this.deps.repo.pendingOf(uid)) {
      try {
        await this.deps.jobs.cancel(id, 'any', `its account was blocked by the administrator ${who(actor)}`);
        cancelledJobs.push(id);
      } catch (err) {
        // It finished meanwhile.
        if (!(err instanceof AppError)) throw err;
      }
    }
    await this.audit(actor, 'block-account', `account:${uid}`, { cancelledJobs });
    return { account: await this.account(uid), cancelledJobs };
  }

  async unblock(actor: Actor, uid: string): Promise<{ account: AdminAccount; cancelledJobs: number[] }> {
    if (!(await this.deps.repo.setBlocked(uid, null))) throw new AppError('ACCOUNT_NOT_FOUND');
    this.blocked.delete(uid);
    await this.audit(actor, 'unblock-account', `account:${uid}`);
    return { account: await this.account(uid), cancelledJobs: [] };
  }

  async auditLog() {
    const rows = await this.deps.repo.auditLog();
    return rows.map((r) => ({
      id: r.id,
      actorUid: r.actorUid,
      actorEmail: r.actorEmail,
      action: r.action,
      target: r.target,
      at: r.createdAt.toISOString(),
    }));
  }

  private async account(uid: string): Promise<AdminAccount> {
    const row = await this.deps.repo.account(uid);
    if (!row) throw new AppError('ACCOUNT_NOT_FOUND');
    return accountView(row);
  }

  private async audit(actor: Actor, action: AdminAction, target: string, detail?: Record<string, unknown>) {
    await this.deps.repo.audit({ actorUid: actor.uid, actorEmail: actor.email ?? null, action, target, detail });
    this.deps.log.info({ admin: actor.uid, action, target }, 'admin action');
  }
}

const who = (actor: Actor) => actor.email ?? actor.uid;

function jobView(row: JobWithEmail): AdminJob {
  const meta = row.metadata as Record<string, unknown>;
  const startedAt = typeof meta.startedAt === 'string' ? meta.startedAt : null;
  const pending = row.status === 'pending';
  const percent = typeof meta.percent === 'number' ? meta.percent : null;
  return {
    id: row.id,
    operation: row.operation,
    status: row.status as JobStatus,
    phase: pending ? (startedAt ? 'running' : 'waiting') : null,
    owner: { uid: row.ownerUid, email: row.ownerEmail, guest: !row.ownerUid },
    createdAt: row.createdAt.toISOString(),
    startedAt,
    completedAt: row.completedAt?.toISOString() ?? null,
    ageMs: Math.max(0, Date.now() - row.createdAt.getTime()),
    stage: typeof meta.stage === 'string' ? meta.stage : null,
    percent,
    engineHost: row.engineHost,
    errorCode: typeof meta.errorCode === 'string' ? meta.errorCode : null,
    error: typeof meta.error === 'string' ? meta.error : null,
    reason: row.failureReason,
    photo:
      row.inputWidth && row.inputHeight
        ? { width: row.inputWidth, height: row.inputHeight, bytes: row.inputBytes ?? 0 }
        : null,
  };
}

function accountView(row: AccountWithJobs): AdminAccount {
  return {
    uid: row.uid,
    email: row.email,
    name: row.name,
    lastSeenAt: row.lastSeenAt.toISOString(),
    blockedAt: row.blockedAt?.toISOString() ?? null,
    jobs: row.jobs,
  };
}
