import { formatDate } from '@/components/ui/format';
import type { DailyUsage } from '@/lib/subscriptions';

type UsageDay = Pick<DailyUsage, 'day' | 'queries'>;

/**
 * Queries per day as a server-rendered SVG bar chart (no client JavaScript), with a summary for screen readers and
 * the full numbers in a table behind a disclosure.
 */
export function UsageChart({ days, title }: { days: UsageDay[]; title: string }) {
  const width = 600;
  const height = 160;
  const pad = { top: 10, right: 8, bottom: 22, left: 36 };
  const max = Math.max(1, ...days.map((d) => d.queries));
  const niceMax = max <= 5 ? max : Math.ceil(max / 5) * 5;
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(2, slot * 0.7);
  const total = days.reduce((s, d) => s + d.queries, 0);
  const busiest = days.reduce<UsageDay | null>((b, d) => (!b || d.queries > b.queries ? d : b), null);
  const summary =
    days.length === 0
      ? 'No data.'
      : `${total} queries over the last ${days.length} days (${formatDate(days[0]!.day)} to ${formatDate(days.at(-1)!.day)})` +
        (busiest && busiest.queries > 0 ? `; busiest day ${formatDate(busiest.day)} with ${busiest.queries}.` : '.');
  const id = `chart-${title.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`;
  return (
    <figure className="w-full">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} className="h-auto w-full">
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {[0, 0.5, 1].map((f) => {
          const y = pad.top + plotH - f * plotH;
          return (
            <g key={f}>
              <line x1={pad.left} x2={width - pad.right} y1={y} y2={y} stroke="#e2e8f0" />
              <text x={pad.left - 6} y={y + 4} textAnchor="end" fontSize="10" fill="#475569">
                {Math.round(niceMax * f)}
              </text>
            </g>
          );
        })}
        {days.map((d, i) => {
          const h = (d.queries / niceMax) * plotH;
          const x = pad.left + i * slot + (slot - barW) / 2;
          return (
            <rect key={d.day} x={x} y={pad.top + plotH - h} width={barW} height={Math.max(h, d.queries > 0 ? 1 : 0)} fill="#1f57c9" rx="1">
              <title>{`${d.day}: ${d.queries} queries`}</title>
            </rect>
          );
        })}
        {days.length > 0 ? (
          <>
            <text x={pad.left} y={height - 6} fontSize="10" fill="#475569">
              {formatDate(days[0]!.day)}
            </text>
            <text x={width - pad.right} y={height - 6} fontSize="10" fill="#475569" textAnchor="end">
              {formatDate(days.at(-1)!.day)}
            </text>
          </>
        ) : null}
      </svg>
      <figcaption className="mt-1 text-sm text-slate-700">{summary}</figcaption>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer font-medium text-brand-700">Show the numbers as a table</summary>
        <table className="mt-2 w-full max-w-sm text-left">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr className="border-b border-slate-200">
              <th scope="col" className="py-1 pr-4 font-medium">
                Day (UTC)
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Queries
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day} className="border-b border-slate-100">
                <td className="py-1 pr-4">{d.day}</td>
                <td className="py-1 text-right tabular-nums">{d.queries}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
