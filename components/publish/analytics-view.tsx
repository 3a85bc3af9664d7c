import Link from 'next/link';
import { buttonClasses } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';
import { DataTable, type DataColumn } from '@/components/ui/data-table';
import { formatAmount, formatDate, formatDayMonth, formatInteger, formatMonth } from '@/lib/platform/format';
import { Section } from '@/components/ui/section';
import type { AnalyticsView as Analytics, DailyOutcomes } from '@/lib/publishing';

const COLORS = { answered: '#1f57c9', abstained: '#94a3b8', errors: '#b91c1c' } as const;

const DAILY_COLUMNS: DataColumn<DailyOutcomes>[] = [
  { header: 'Day (UTC)', cell: (d) => formatDate(d.day), className: 'sm:whitespace-nowrap' },
  { header: 'Answered', cell: (d) => d.answered, numeric: true },
  { header: 'Abstained', cell: (d) => d.abstained, numeric: true },
  { header: 'Errors', cell: (d) => d.errors, numeric: true },
];
const ERROR_COLUMNS: DataColumn<Analytics['errorsByCode'][number]>[] = [
  { header: 'Code', cell: (e) => e.code, className: 'font-mono text-xs' },
  { header: 'Queries', cell: (e) => e.count, numeric: true },
];
const SUBSCRIBER_COLUMNS: DataColumn<Analytics['subscribersByPlan'][number]>[] = [
  { header: 'Plan', cell: (p) => (p.active ? p.plan : `${p.plan} (retired)`) },
  { header: 'Subscribers', cell: (p) => p.subscribers, numeric: true },
];
const REVENUE_COLUMNS: DataColumn<Analytics['revenueByMonth'][number]>[] = [
  { header: 'Month', cell: (r) => formatMonth(r.month), className: 'sm:whitespace-nowrap' },
  { header: 'Gross', cell: (r) => formatAmount(r.grossCents, r.currency), numeric: true },
  { header: 'Your share', cell: (r) => formatAmount(r.netCents, r.currency), numeric: true },
];

/**
 * Answered / abstained / errors per day as a stacked SVG bar chart drawn at phone width (so its labels stay readable
 * at 390 px), with a summary for screen readers and every number in a table behind a disclosure.
 */
export function OutcomesChart({ days, title }: { days: DailyOutcomes[]; title: string }) {
  const width = 360;
  const height = 190;
  const pad = { top: 10, right: 6, bottom: 24, left: 34 };
  const max = Math.max(1, ...days.map((d) => d.answered + d.abstained + d.errors));
  // Whole-number gridlines: 0 and 1 for a chart of ones, else 0, half and the top.
  const niceMax = max <= 1 ? 1 : max <= 4 ? Math.ceil(max / 2) * 2 : Math.ceil(max / 4) * 4;
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(2, slot * 0.7);
  const totals = days.reduce((t, d) => ({ a: t.a + d.answered, b: t.b + d.abstained, e: t.e + d.errors }), { a: 0, b: 0, e: 0 });
  const summary =
    days.length === 0 ? 'No data.' : `From ${formatDate(days[0]!.day)} to ${formatDate(days.at(-1)!.day)}: ${totals.a} answered, ${totals.b} abstained, ${totals.e} errors.`;
  const id = `chart-${title.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`;
  return (
    <figure className="w-full max-w-lg">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} className="h-auto w-full">
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {(niceMax === 1 ? [0, 1] : [0, 0.5, 1]).map((f) => {
          const y = pad.top + plotH - f * plotH;
          return (
            <g key={f}>
              <line x1={pad.left} x2={width - pad.right} y1={y} y2={y} stroke="#e2e8f0" />
              <text x={pad.left - 5} y={y + 4} textAnchor="end" fontSize="11" fill="#334155">
                {Math.round(niceMax * f)}
              </text>
            </g>
          );
        })}
        {days.map((d, i) => {
          const x = pad.left + i * slot + (slot - barW) / 2;
          let y = pad.top + plotH;
          return (
            <g key={d.day}>
              {(['answered', 'abstained', 'errors'] as const).map((k) => {
                const h = (d[k] / niceMax) * plotH;
                y -= h;
                return h > 0 ? <rect key={k} x={x} y={y} width={barW} height={h} fill={COLORS[k]} /> : null;
              })}
              <title>{`${formatDate(d.day)}: ${d.answered} answered, ${d.abstained} abstained, ${d.errors} errors`}</title>
            </g>
          );
        })}
        {days.length > 0 ? (
          <>
            <text x={pad.left} y={height - 6} fontSize="11" fill="#334155">
              {formatDayMonth(days[0]!.day)}
            </text>
            <text x={width - pad.right} y={height - 6} fontSize="11" fill="#334155" textAnchor="end">
              {formatDayMonth(days.at(-1)!.day)}
            </text>
          </>
        ) : null}
      </svg>
      <figcaption className="mt-2 text-sm text-slate-700">
        <span className="mr-4 inline-flex items-center gap-1">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ background: COLORS.answered }} /> Answered
        </span>
        <span className="mr-4 inline-flex items-center gap-1">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ background: COLORS.abstained }} /> Abstained (free)
        </span>
        <span className="inline-flex items-center gap-1">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ background: COLORS.errors }} /> Errors
        </span>
        <span className="mt-1 block">{summary}</span>
      </figcaption>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer font-medium text-brand-700">Show the numbers as a table</summary>
        <DataTable caption={title} columns={DAILY_COLUMNS} rows={days} rowKey={(d) => d.day} className="mt-2" />
      </details>
    </figure>
  );
}

const latencyText = (ms: number | null) => (ms === null ? '—' : Number.isFinite(ms) ? `≤ ${formatInteger(ms)} ms` : '> 30 s');

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** The analytics of one listing or of all of them: figures, the chart, errors, subscribers, revenue, CSV. */
export function AnalyticsPanel({ view, title, basePath, csvHref }: { view: Analytics; title: string; basePath: string; csvHref: string }) {
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <nav aria-label="Period" className="flex gap-1 text-sm">
          {[7, 30, 90].map((n) => (
            <Link
              key={n}
              href={`${basePath}?days=${n}`}
              aria-current={view.days === n ? 'page' : undefined}
              className={cx('rounded-md px-3 py-1.5 font-medium', view.days === n ? 'bg-brand-700 text-white' : 'bg-white text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50')}
            >
              {n} days
            </Link>
          ))}
        </nav>
        <a href={csvHref} className={buttonClasses({ variant: 'secondary', size: 'sm' })} download>
          Export CSV
        </a>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-3 md:grid-cols-5">
        <Stat label="Answered" value={formatInteger(view.totals.answered)} testId="stat-answered" />
        <Stat label="Abstained" value={formatInteger(view.totals.abstained)} />
        <Stat label="Errors" value={formatInteger(view.totals.errors)} />
        <Stat label="Latency p50" value={latencyText(view.latency.p50)} />
        <Stat label="Latency p95" value={latencyText(view.latency.p95)} />
      </dl>
      <Section id="daily-heading" title="Queries per day" size="lg" className="mt-8">
        <div className="mt-3">
          <OutcomesChart days={view.daily} title={`${title}: queries per day`} />
        </div>
      </Section>
      <div className="mt-8 grid gap-8 md:grid-cols-3">
        <Section id="errors-heading" title="Errors by code" size="base">
          {view.errorsByCode.length === 0 ? (
            <p className="mt-2 text-sm text-slate-700">No errors in this period.</p>
          ) : (
            <DataTable caption="Errors by code" columns={ERROR_COLUMNS} rows={view.errorsByCode} rowKey={(e) => e.code} className="mt-2" />
          )}
        </Section>
        <Section id="subscribers-heading" title="Active subscribers by plan" size="base">
          {view.subscribersByPlan.length === 0 ? (
            <p className="mt-2 text-sm text-slate-700">No plans yet.</p>
          ) : (
            // Two plans may share a name (one retired): the position keeps their keys apart.
            <DataTable caption="Active subscribers by plan" columns={SUBSCRIBER_COLUMNS} rows={view.subscribersByPlan} rowKey={(p, i) => `${p.plan}-${i}`} className="mt-2" />
          )}
        </Section>
        <Section id="revenue-heading" title="Revenue by month" size="base">
          {view.revenueByMonth.length === 0 ? (
            <p className="mt-2 text-sm text-slate-700">No paid periods yet.</p>
          ) : (
            <DataTable caption="Revenue by month" columns={REVENUE_COLUMNS} rows={view.revenueByMonth} rowKey={(r) => `${r.month}-${r.currency}`} className="mt-2" />
          )}
        </Section>
      </div>
      <p className="mt-8 text-xs text-slate-600">
        Daily totals in UTC, updated within seconds. Questions are never stored, and buyers are never named. Test-console questions are not counted.
      </p>
    </div>
  );
}
