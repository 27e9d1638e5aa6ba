import type { Health } from '@ai-editor/core';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, CircleHelp, RefreshCw, XCircle } from 'lucide-react';
import { Page } from '@/components/layout/Page';
import { Button } from '@/components/ui/button';
import { useHealth } from '@/features/tool/useEngine';
import { ApiError } from '@/lib/api';
import { queries } from '@/lib/queries';

const REFRESH_MS = 15_000;

type State = 'up' | 'down' | 'unknown';
interface Row {
  name: string;
  state: State;
  detail?: string;
}

function engineRow(health: Health | undefined, operation: string, name: string): Row {
  const e = health?.engines.find((x) => x.operation === operation);
  if (!health) return { name, state: 'unknown' };
  if (!e) return { name, state: 'down', detail: 'No engine on this server' };
  return e.available
    ? { name, state: 'up', detail: e.engine === 'local' ? 'Runs on this server' : `Runs on ${e.engine}` }
    : { name, state: 'down', detail: e.reason ?? 'Switched off on this server' };
}

export function statusRows(
  health: Health | undefined,
  authOk: boolean | undefined,
): { services: Row[]; engines: Row[] } {
  const known = health !== undefined;
  const part = (name: string, ok: boolean | undefined, detail?: string): Row => ({
    name,
    state: !known || ok === undefined ? 'unknown' : ok ? 'up' : 'down',
    detail,
  });
  const services: Row[] = [
    engineRow(health, 'face-enhancement', 'Image Enhancement API'),
    engineRow(health, 'background-removal', 'Background Removal API'),
    engineRow(health, 'style-transfer', 'Style Transfer API'),
    { name: 'User Authentication', state: authOk === undefined ? 'unknown' : authOk ? 'up' : 'down' },
    part('Image Storage', health?.storage.ok),
    part(
      'Background Jobs',
      health?.queue.ok,
      health ? `${health.queue.active} running, ${health.queue.waiting} waiting` : undefined,
    ),
    part('Database', health?.database.ok),
    { name: 'Web Application', state: 'up', detail: 'You are using it' },
  ];
  const engines: Row[] = (health?.engines ?? []).map((e) => ({
    name: e.name ?? e.operation,
    state: e.available ? 'up' : 'down',
    detail: e.available
      ? `${e.engine === 'local' ? 'Local engine' : `Provider: ${e.engine}`}${e.engine === 'local' ? (e.loaded ? ', model loaded' : ', loads on first use') : ''}`
      : (e.reason ?? 'Switched off on this server'),
  }));
  return { services, engines };
}

/**
 * The banner's sentence, from the same rows the page lists below it, so that the two never disagree: all up;
 * only some tools off on this server (the rest works); or a core part down.
 */
export function statusSummary(services: Row[], engines: Row[]): string {
  const isTool = (r: Row) => r.name.endsWith(' API');
  if (services.some((r) => !isTool(r) && r.state === 'down')) return 'Some systems are degraded.';
  const off = engines.filter((r) => r.state === 'down').map((r) => r.name);
  if (off.length === 0 && !services.some((r) => isTool(r) && r.state === 'down')) {
    return 'All systems are operational.';
  }
  return `Core systems are operational. Some AI tools are not available on this server${off.length ? `: ${off.join(', ')}` : ''}.`;
}

const LABEL: Record<State, string> = { up: 'Operational', down: 'Unavailable', unknown: 'Unknown' };

function StatusList({ rows, label }: { rows: Row[]; label: string }) {
  return (
    <ul className="divide-y rounded-lg border" aria-label={label}>
      {rows.map((row) => (
        <li key={row.name} className="flex items-center justify-between gap-4 p-4" data-testid="status-row">
          <div>
            <p className="font-medium">{row.name}</p>
            {row.detail && <p className="text-sm text-muted-foreground">{row.detail}</p>}
          </div>
          <span
            className={`flex shrink-0 items-center gap-1.5 text-sm font-medium ${row.state === 'up' ? 'text-emerald-700 dark:text-emerald-400' : row.state === 'down' ? 'text-destructive dark:text-red-400' : 'text-muted-foreground'}`}
            data-state={row.state}
          >
            {row.state === 'up' ? (
              <CheckCircle2 className="h-4 w-4" aria-hidden />
            ) : row.state === 'down' ? (
              <XCircle className="h-4 w-4" aria-hidden />
            ) : (
              <CircleHelp className="h-4 w-4" aria-hidden />
            )}
            {LABEL[row.state]}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Live status from /api/health, refreshed every 15 s. No uptime figures: we only show what we measure. */
export default function Status() {
  const health = useHealth(REFRESH_MS);
  // Sign-in is served by /api/me: it answering means sessions and identity work (unknown while unreachable).
  const me = useQuery({ ...queries.me(), refetchInterval: REFRESH_MS, staleTime: 0 });
  const authOk = me.isSuccess ? true : me.error instanceof ApiError ? false : undefined;
  const { services, engines } = statusRows(health.data, authOk);
  const summary = statusSummary(services, engines);
  const allUp = summary === 'All systems are operational.';
  return (
    <Page title="System Status" lead="The live state of every part of AI Editor on this server.">
      <div
        className={`mb-6 rounded-lg border p-4 font-medium ${health.isError ? 'border-destructive' : allUp ? 'border-emerald-600' : ''}`}
        role="status"
      >
        {health.isPending ? 'Checking…' : health.isError ? 'The server did not answer the health check.' : summary}
      </div>
      <StatusList rows={services} label="Services" />
      <h2 className="mb-3 mt-10 text-2xl font-semibold">AI engines</h2>
      {engines.length > 0 ? (
        <StatusList rows={engines} label="AI engines" />
      ) : (
        <p className="text-muted-foreground">Engine states appear here once the server answers.</p>
      )}
      <div className="mt-6 flex flex-wrap items-center gap-4 text-sm text-muted-foreground">
        <span>
          Last checked: {health.dataUpdatedAt ? new Date(health.dataUpdatedAt).toLocaleTimeString() : 'not yet'}.
          Refreshes every {REFRESH_MS / 1000} seconds.
        </span>
        <Button variant="outline" size="sm" onClick={() => void health.refetch()} disabled={health.isFetching}>
          <RefreshCw aria-hidden /> Refresh
        </Button>
      </div>
    </Page>
  );
}
