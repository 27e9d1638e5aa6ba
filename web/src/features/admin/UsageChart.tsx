import type { AdminUsage } from '@ai-editor/core';

const COLOURS = ['#2563eb', '#16a34a', '#d97706', '#db2777', '#7c3aed', '#0891b2', '#dc2626', '#65a30d'];

/** The last `days` UTC days, oldest first, as YYYY-MM-DD. */
function lastDays(days: number, now = new Date()): string[] {
  const out: string[] = [];
  for (let i = days - 1; i >= 0; i--) out.push(new Date(now.getTime() - i * 86_400_000).toISOString().slice(0, 10));
  return out;
}

/** Jobs per day over 30 days as stacked bars, one colour per operation: a small inline SVG, no chart library. */
export function UsageChart({ usage, days = 30 }: { usage: AdminUsage; days?: number }) {
  const dayList = lastDays(days);
  const operations = [...new Set(usage.days.map((d) => d.operation))].sort();
  const colour = (op: string) => COLOURS[operations.indexOf(op) % COLOURS.length] as string;
  const totals = dayList.map((day) => usage.days.filter((d) => d.day === day).reduce((n, d) => n + d.jobs, 0));
  const max = Math.max(1, ...totals);
  const width = 600;
  const height = 160;
  const bar = width / days;
  const total = totals.reduce((a, b) => a + b, 0);
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height + 16}`}
        className="w-full max-w-2xl"
        role="img"
        aria-label={`Jobs per day over the last ${days} days: ${total} in all`}
        data-testid="usage-chart"
      >
        {dayList.map((day, i) => {
          let y = height;
          return usage.days
            .filter((d) => d.day === day)
            .map((d) => {
              const h = (d.jobs / max) * (height - 4);
              y -= h;
              return (
                <rect
                  key={`${day}-${d.operation}`}
                  x={i * bar + 1}
                  y={y}
                  width={bar - 2}
                  height={h}
                  fill={colour(d.operation)}
                >
                  <title>{`${day} ${d.operation}: ${d.jobs}`}</title>
                </rect>
              );
            });
        })}
        <line x1={0} x2={width} y1={height} y2={height} stroke="currentColor" strokeOpacity={0.3} />
        <text x={0} y={height + 14} fontSize={11} fill="currentColor">
          {dayList[0]}
        </text>
        <text x={width} y={height + 14} fontSize={11} fill="currentColor" textAnchor="end">
          {dayList[dayList.length - 1]}
        </text>
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-3 text-xs text-muted-foreground">
        {operations.map((op) => (
          <span key={op} className="inline-flex items-center gap-1">
            <span className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: colour(op) }} aria-hidden />
            {op}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
