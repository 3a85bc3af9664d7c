import { formatDate, plural } from '@/lib/platform/format';
import type { DailyUsage } from '@/lib/subscriptions';

type UsageDay = Pick<DailyUsage, 'day' | 'queries'>;

// Queries per day as a server-rendered SVG bar chart: no client JavaScript.
export function UsageChart({ days, title }: { days: UsageDay[]; title: string }) {
  // Labels are HTML outside the SVG: text inside a scaled SVG shrinks to about 4 px on a phone.
  const width = 600;
  const height = 160;
  const max = Math.max(1, ...days.map((d) => d.queries));
  const niceMax = max <= 5 ? max : Math.ceil(max / 5) * 5;
  const slot = width / Math.max(1, days.length);
  const barW = Math.max(2, slot * 0.7);
  const total = days.reduce((s, d) => s + d.queries, 0);
  const busiest = days.reduce<UsageDay | null>((b, d) => (!b || d.queries > b.queries ? d : b), null);
  const summary =
    days.length === 0
      ? 'No data.'
      : `${plural(total, 'query', 'queries')} over the last ${days.length} days (${formatDate(days[0]!.day)} to ${formatDate(days.at(-1)!.day)})` +
        (busiest && busiest.queries > 0 ? `; busiest day ${formatDate(busiest.day)} with ${busiest.queries}.` : '.');
  const id = `chart-${title.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`;
  return (
    <figure className="w-full">
      <div className="flex gap-2">
        <div aria-hidden="true" className="flex h-40 w-8 shrink-0 flex-col justify-between text-right text-xs leading-none text-slate-600 tabular-nums">
          <span>{niceMax}</span>
          {/* The middle line is labelled only when it falls on a whole number (not "1, 1, 0" for a maximum of 1). */}
          <span>{niceMax % 2 === 0 ? niceMax / 2 : ''}</span>
          <span>0</span>
        </div>
        <svg
          viewBox={`0 0 ${width} ${height}`}
          preserveAspectRatio="none"
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          className="h-40 min-w-0 flex-1"
        >
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{summary}</desc>
          {[0, 0.5, 1].map((f) => (
            <line key={f} x1={0} x2={width} y1={height - f * height} y2={height - f * height} stroke="#e2e8f0" vectorEffect="non-scaling-stroke" />
          ))}
          {days.map((d, i) => {
            const h = (d.queries / niceMax) * height;
            return (
              <rect key={d.day} x={i * slot + (slot - barW) / 2} y={height - h} width={barW} height={Math.max(h, d.queries > 0 ? 1 : 0)} fill="#1f57c9">
                <title>{`${formatDate(d.day)}: ${plural(d.queries, 'query', 'queries')}`}</title>
              </rect>
            );
          })}
        </svg>
      </div>
      {days.length > 0 ? (
        <div aria-hidden="true" className="ml-10 mt-1 flex justify-between text-xs text-slate-600">
          <span>{formatDate(days[0]!.day)}</span>
          <span>{formatDate(days.at(-1)!.day)}</span>
        </div>
      ) : null}
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
                <td className="py-1 pr-4">{formatDate(d.day)}</td>
                <td className="py-1 text-right tabular-nums">{d.queries}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
