import { type AdminJob, errorMessage, errorTitle, OPERATION_IDS } from '@ai-editor/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Page } from '@/components/layout/Page';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { UsageChart } from '@/features/admin/UsageChart';
import { useMe } from '@/features/auth/api';
import { type Answer, ApiError, api, dataOf } from '@/lib/api';
import { queries } from '@/lib/queries';

const REFRESH_MS = 3_000;

function age(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} d`;
}

const owner = (job: AdminJob) => (job.owner.guest ? 'guest' : (job.owner.email ?? job.owner.uid ?? '?'));
const photo = (job: AdminJob) =>
  job.photo ? `${job.photo.width}×${job.photo.height}, ${(job.photo.bytes / 1024).toFixed(0)} KB` : '—';
const ms = (v: number | null) => (v === null ? '—' : v < 1000 ? `${v} ms` : `${(v / 1000).toFixed(1)} s`);

/** The administrator's actions (ADMIN_ACTIONS in core): cancel a job, block or unblock an account. */
const cancelJob = (id: number) => api.POST('/api/admin/jobs/{id}/cancel', { params: { path: { id: String(id) } } });
const setBlocked = (uid: string, blocked: boolean) =>
  blocked
    ? api.POST('/api/admin/users/{uid}/block', { params: { path: { uid } } })
    : api.POST('/api/admin/users/{uid}/unblock', { params: { path: { uid } } });

/** Runs an admin action, refreshes what it changed, and says what went wrong in a toast. */
function useAction() {
  const queryClient = useQueryClient();
  return async (request: () => Promise<Answer<unknown>>, done: string) => {
    try {
      await dataOf(request());
      toast({ title: done });
    } catch (err) {
      const body = err instanceof ApiError ? err.body : undefined;
      toast({ variant: 'destructive', title: errorTitle(body?.code), description: body?.message ?? String(err) });
    }
    await queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('/api/admin/') });
  };
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`admin-${title}`} className="mb-12">
      <h2 id={`admin-${title}`} className="mb-4 text-2xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Table({ label, head, children }: { label: string; head: string[]; children: React.ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-lg border">
      <table className="w-full text-left text-sm" aria-label={label}>
        <thead className="bg-muted/50">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="px-3 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y">{children}</tbody>
      </table>
    </div>
  );
}

const Td = ({ children, className }: { children: React.ReactNode; className?: string }) => (
  <td className={`px-3 py-2 align-top ${className ?? ''}`}>{children}</td>
);

function QueueNow() {
  const act = useAction();
  const { data } = useQuery({ ...queries.adminJobs({ status: 'pending' }), refetchInterval: REFRESH_MS });
  const jobs = data?.jobs ?? [];
  return (
    <Section title="Queue now">
      {jobs.length === 0 ? (
        <p className="text-muted-foreground">No job is waiting or running.</p>
      ) : (
        <Table label="Queue now" head={['Job', 'Operation', 'Owner', 'State', 'Age', 'Progress', 'Engine host', '']}>
          {jobs.map((job) => (
            <tr key={job.id} data-testid="queue-row">
              <Td>#{job.id}</Td>
              <Td>{job.operation}</Td>
              <Td className="max-w-[14rem] truncate">{owner(job)}</Td>
              <Td>{job.phase}</Td>
              <Td>{age(job.ageMs)}</Td>
              <Td>
                {job.stage ?? '—'}
                {job.percent !== null && ` ${Math.round(job.percent)}%`}
              </Td>
              <Td>{job.engineHost ?? '—'}</Td>
              <Td>
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => void act(() => cancelJob(job.id), `Job #${job.id} cancelled`)}
                  aria-label={`Cancel job ${job.id}`}
                >
                  Cancel
                </Button>
              </Td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}

function Failures() {
  const [operation, setOperation] = useState('');
  const [code, setCode] = useState('');
  const { data } = useQuery({ ...queries.adminJobs({ status: 'failed', operation, code }), refetchInterval: 10_000 });
  const jobs = data?.jobs ?? [];
  return (
    <Section title="Recent failures">
      <div className="mb-4 flex flex-wrap gap-3">
        <label className="flex items-center gap-2 text-sm">
          Operation
          <NativeSelect value={operation} onChange={(e) => setOperation(e.target.value)} className="w-56">
            <option value="">All</option>
            {OPERATION_IDS.map((op) => (
              <option key={op} value={op}>
                {op}
              </option>
            ))}
          </NativeSelect>
        </label>
        <label className="flex items-center gap-2 text-sm">
          Code
          <Input
            value={code}
            onChange={(e) => setCode(e.target.value.trim())}
            placeholder="e.g. CANCELLED"
            className="w-48"
          />
        </label>
      </div>
      {jobs.length === 0 ? (
        <p className="text-muted-foreground">No failed job.</p>
      ) : (
        <Table
          label="Recent failures"
          head={['Job', 'Operation', 'Code', 'Message', 'Logged reason', 'Photo', 'Owner', 'When']}
        >
          {jobs.map((job) => (
            <tr key={job.id} data-testid="failure-row">
              <Td>#{job.id}</Td>
              <Td>{job.operation}</Td>
              <Td>{job.errorCode ?? '—'}</Td>
              <Td>{job.error ?? '—'}</Td>
              <Td className="max-w-[18rem] break-words text-muted-foreground">{job.reason ?? '—'}</Td>
              <Td>{photo(job)}</Td>
              <Td className="max-w-[12rem] truncate">{owner(job)}</Td>
              <Td>{age(job.ageMs)} ago</Td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}

function Engines() {
  const { data } = useQuery({ ...queries.adminEngines(), refetchInterval: 10_000 });
  if (!data) return <Section title="Engines">{null}</Section>;
  return (
    <Section title="Engines">
      {data.processes.length === 0 && <p className="mb-4 text-muted-foreground">No process reports engine hosts.</p>}
      {data.processes.map((p) => (
        <div key={p.name} className="mb-4">
          <p className="mb-2 text-sm font-medium">
            {p.name}: {p.hosts.length} host(s), budget {p.memoryBudgetMb} MB each, {p.replaced} replaced
          </p>
          <ul className="flex flex-wrap gap-2 text-sm" aria-label={`Engine hosts of ${p.name}`}>
            {p.hosts.map((h) => (
              <li key={h.pid ?? 'starting'} className="rounded border px-2 py-1" data-testid="engine-host">
                PID {h.pid ?? '—'}: {h.ready ? (h.busy ? 'busy' : 'idle') : 'starting'}, {h.rssMb} MB
              </li>
            ))}
          </ul>
        </div>
      ))}
      <Table
        label="Engines by operation"
        head={['Operation', 'Engine', 'Loaded', 'Jobs (1 h)', 'p50 (24 h)', 'p95 (24 h)']}
      >
        {data.operations.map((o) => (
          <tr key={o.operation}>
            <Td>{o.name}</Td>
            <Td>{o.engine ?? 'off'}</Td>
            <Td>{o.loaded ? 'yes' : 'no'}</Td>
            <Td>{o.jobsLastHour}</Td>
            <Td>{ms(o.p50Ms)}</Td>
            <Td>{ms(o.p95Ms)}</Td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}

function Usage() {
  const { data } = useQuery({ ...queries.adminUsage(), refetchInterval: 30_000 });
  if (!data) return <Section title="Usage">{null}</Section>;
  return (
    <Section title="Usage">
      <UsageChart usage={data} />
      <p className="mt-4 text-sm">
        Distinct signed-in users over 30 days: <strong data-testid="distinct-users">{data.distinctUsers}</strong>
      </p>
      {data.topUsers.length > 0 && (
        <ol className="mt-2 list-decimal pl-6 text-sm" aria-label="Top users">
          {data.topUsers.map((u) => (
            <li key={u.uid}>
              {u.email ?? u.uid}: {u.jobs} jobs
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

function Accounts() {
  const act = useAction();
  const { data: me } = useMe();
  const [email, setEmail] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  // Blocking cancels the account's jobs at once: the button asks first, in the row.
  const [confirming, setConfirming] = useState<string | null>(null);
  const { data } = useQuery(queries.adminAccounts(email));
  const jobs = useQuery({ ...queries.adminJobs({ uid: shown ?? '' }), enabled: shown !== null });
  return (
    <Section title="Accounts">
      <label className="mb-4 flex max-w-md items-center gap-2 text-sm">
        Find by email
        <Input type="search" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="name@example.com" />
      </label>
      <Table label="Accounts" head={['Email', 'Last seen', 'Jobs', 'State', '']}>
        {(data?.accounts ?? []).map((a) => (
          <tr key={a.uid} data-testid="account-row">
            <Td className="max-w-[16rem] truncate">{a.email ?? a.uid}</Td>
            <Td>{new Date(a.lastSeenAt).toLocaleString()}</Td>
            <Td>{a.jobs}</Td>
            <Td>{a.blockedAt ? 'blocked' : 'active'}</Td>
            <Td className="flex gap-2">
              <Button size="sm" variant="outline" onClick={() => setShown(shown === a.uid ? null : a.uid)}>
                {shown === a.uid ? 'Hide jobs' : 'Jobs'}
              </Button>
              {a.uid === me?.user?.uid ? null : a.blockedAt ? (
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => void act(() => setBlocked(a.uid, false), 'Account unblocked')}
                >
                  Unblock
                </Button>
              ) : confirming === a.uid ? (
                <span className="flex items-center gap-2" role="group" aria-label="Confirm the block">
                  <span className="text-destructive">
                    Block {a.email ?? a.uid}? Its waiting and running jobs are cancelled.
                  </span>
                  <Button
                    size="sm"
                    variant="destructive"
                    onClick={() => {
                      setConfirming(null);
                      void act(() => setBlocked(a.uid, true), 'Account blocked');
                    }}
                  >
                    Yes, block
                  </Button>
                  <Button size="sm" variant="outline" onClick={() => setConfirming(null)}>
                    Keep active
                  </Button>
                </span>
              ) : (
                <Button size="sm" variant="destructive" onClick={() => setConfirming(a.uid)}>
                  Block
                </Button>
              )}
            </Td>
          </tr>
        ))}
      </Table>
      {shown && (
        <ul className="mt-4 space-y-1 text-sm" aria-label="The account's jobs">
          {(jobs.data?.jobs ?? []).map((j) => (
            <li key={j.id}>
              #{j.id} {j.operation}: {j.status}
              {j.errorCode && ` (${j.errorCode})`}, {age(j.ageMs)} ago
            </li>
          ))}
          {jobs.data?.jobs.length === 0 && <li className="text-muted-foreground">No jobs.</li>}
        </ul>
      )}
    </Section>
  );
}

function AuditLog() {
  const { data } = useQuery(queries.adminAudit());
  return (
    <Section title="Audit log">
      {(data?.entries ?? []).length === 0 ? (
        <p className="text-muted-foreground">No administrator action yet.</p>
      ) : (
        <Table label="Audit log" head={['When', 'Who', 'What', 'Target']}>
          {(data?.entries ?? []).map((e) => (
            <tr key={e.id}>
              <Td>{new Date(e.at).toLocaleString()}</Td>
              <Td>{e.actorEmail ?? e.actorUid}</Td>
              <Td>{e.action}</Td>
              <Td>{e.target}</Td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}

/** The operator's page (ADMIN_EMAILS accounts only; the server refuses everyone else's requests too). */
export default function Admin() {
  const { data: me, isPending } = useMe();
  if (isPending) return <Page title="Admin">{null}</Page>;
  if (!me?.admin) {
    return (
      <Page title="Admin">
        <p role="alert">{errorMessage('ADMIN_ONLY')}</p>
      </Page>
    );
  }
  return (
    <Page title="Admin" lead="What runs, what failed, who uses what, and the accounts." wide>
      <QueueNow />
      <Failures />
      <Engines />
      <Usage />
      <Accounts />
      <AuditLog />
    </Page>
  );
}
