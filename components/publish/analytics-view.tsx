import Link from 'next/link';
import { buttonClasses } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';
import { DataTable, type DataColumn } from '@/components/ui/data-table';
import { formatAmount, formatDate, formatDayMonth, formatInteger, formatMonth } from '@/lib/platform/format';
import { Section } from '@/components/ui/section';
import type { AnalyticsView as Analytics, DailyOutcomes } from '@/lib/publishing';

/** Stacked from the bottom: what was answered, what was free, what was refused or failed. */
const SERIES = [
  { key: 'answered', label: 'Answered', color: '#1f57c9' },
  { key: 'abstained', label: 'Abstained (free)', color: '#94a3b8' },
  { key: 'previews', label: 'Free previews', color: '#0f766e' },
  { key: 'refused', label: 'Refused (cap or rate limit)', color: '#b45309' },
  { key: 'errors', label: 'Errors', color: '#b91c1c' },
] as const;

type SeriesKey = (typeof SERIES)[number]['key'];
type Totals = Analytics['totals'];

const dayTotal = (d: Pick<DailyOutcomes, SeriesKey>) => SERIES.reduce((n, s) => n + d[s.key], 0);

/** Refusal codes in words; anything else keeps its code. */
const REFUSAL_NAMES: Record<string, string> = { query_cap_exceeded: 'Cap reached', rate_limit_exceeded: 'Rate limited' };

const DAILY_COLUMNS: DataColumn<DailyOutcomes>[] = [
  { header: 'Day (UTC)', cell: (d) => formatDate(d.day), className: 'sm:whitespace-nowrap' },
  ...SERIES.map((s): DataColumn<DailyOutcomes> => ({ header: s.label, cell: (d) => d[s.key], numeric: true })),
];
const CODE_COLUMNS: DataColumn<Analytics['errorsByCode'][number]>[] = [
  { header: 'Code', cell: (e) => (REFUSAL_NAMES[e.code] ? `${REFUSAL_NAMES[e.code]} (${e.code})` : e.code), className: 'font-mono text-xs' },
  { header: 'Requests', cell: (e) => e.count, numeric: true },
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
 * Requests per day, stacked by outcome, as HTML bars that take the whole width at any screen size (text stays text,
 * so it keeps its size on a phone), with the previous period's daily average as a dashed line for comparison, a
 * summary for screen readers, and every number in a table behind a disclosure.
 */
export function OutcomesChart({ days, previous, title }: { days: DailyOutcomes[]; previous: Totals; title: string }) {
  const max = Math.max(1, ...days.map(dayTotal));
  const niceMax = max <= 1 ? 1 : max <= 4 ? Math.ceil(max / 2) * 2 : Math.ceil(max / 4) * 4;
  const previousAverage = days.length === 0 ? 0 : dayTotal(previous) / days.length;
  const totals = days.reduce((t, d) => t + dayTotal(d), 0);
  const summary =
    days.length === 0
      ? 'No data.'
      : `From ${formatDate(days[0]!.day)} to ${formatDate(days.at(-1)!.day)}: ${SERIES.map((s) => `${days.reduce((n, d) => n + d[s.key], 0)} ${s.label.toLowerCase()}`).join(', ')}; ${totals} in all, against ${dayTotal(previous)} in the ${days.length} days before.`;
  const pct = (n: number) => `${Math.min(100, (n / niceMax) * 100)}%`;
  return (
    <figure className="w-full">
      <div role="img" aria-label={`${title}. ${summary}`} className="relative ml-8 h-52 border-b border-slate-300">
        {(niceMax === 1 ? [0, 1] : [0, 0.5, 1]).map((f) => (
          <div key={f} aria-hidden="true" className="absolute inset-x-0 border-t border-slate-200" style={{ bottom: `${f * 100}%` }}>
            <span className="absolute -left-8 -translate-y-1/2 text-xs tabular-nums text-slate-700">{Math.round(niceMax * f)}</span>
          </div>
        ))}
        <div aria-hidden="true" className="absolute inset-0 flex items-end gap-px">
          {days.map((d) => (
            <div key={d.day} className="flex h-full flex-1 flex-col-reverse" title={`${formatDate(d.day)}: ${SERIES.map((s) => `${d[s.key]} ${s.label.toLowerCase()}`).join(', ')}`}>
              {SERIES.map((s) => (d[s.key] > 0 ? <div key={s.key} style={{ height: pct(d[s.key]), background: s.color }} /> : null))}
            </div>
          ))}
        </div>
        {previousAverage > 0 ? (
          <div aria-hidden="true" className="absolute inset-x-0 border-t-2 border-dashed border-slate-900/60" style={{ bottom: pct(previousAverage) }} data-testid="previous-average">
            <span className="absolute right-0 -translate-y-full rounded bg-white/90 px-1 text-xs text-slate-800">previous {days.length} days: {formatInteger(Math.round(previousAverage * 10) / 10)} a day</span>
          </div>
        ) : null}
      </div>
      {days.length > 0 ? (
        <div aria-hidden="true" className="ml-8 mt-1 flex justify-between text-xs text-slate-700">
          <span>{formatDayMonth(days[0]!.day)}</span>
          <span>{formatDayMonth(days.at(-1)!.day)}</span>
        </div>
      ) : null}
      <figcaption className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
        {SERIES.map((s) => (
          <span key={s.key} className="inline-flex items-center gap-1">
            <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ background: s.color }} /> {s.label}
          </span>
        ))}
        <span className="inline-flex items-center gap-1">
          <span aria-hidden="true" className="inline-block w-4 border-t-2 border-dashed border-slate-900/60" /> Previous period, daily average
        </span>
      </figcaption>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer font-medium text-brand-700">Show the numbers as a table</summary>
        <DataTable caption={title} columns={DAILY_COLUMNS} rows={days} rowKey={(d) => d.day} className="mt-2" />
      </details>
    </figure>
  );
}

/** "+3 vs previous 7 days", "same as previous 7 days". */
export function changeText(now: number, before: number, days: number): string {
  const diff = now - before;
  if (diff === 0) return `same as the previous ${days} days`;
  return `${diff > 0 ? '+' : '−'}${formatInteger(Math.abs(diff))} vs the previous ${days} days`;
}

const latencyText = (ms: number | null) => (ms === null ? '—' : Number.isFinite(ms) ? `≤ ${formatInteger(ms)} ms` : '> 30 s');

function Stat({ label, value, change, testId }: { label: string; value: string; change?: string; testId?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </dd>
      {change ? <dd className="mt-0.5 text-xs text-slate-600">{change}</dd> : null}
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
      <dl className="mt-4 grid grid-cols-2 gap-3 md:grid-cols-4 xl:grid-cols-7">
        {SERIES.map((s) => (
          <Stat
            key={s.key}
            label={s.label}
            value={formatInteger(view.totals[s.key])}
            change={changeText(view.totals[s.key], view.previousTotals[s.key], view.days)}
            testId={`stat-${s.key}`}
          />
        ))}
        <Stat label="Latency p50" value={latencyText(view.latency.p50)} />
        <Stat label="Latency p95" value={latencyText(view.latency.p95)} />
      </dl>
      <Section id="daily-heading" title="Requests per day" size="lg" className="mt-8">
        <div className="mt-3">
          <OutcomesChart days={view.daily} previous={view.previousTotals} title={`${title}: requests per day`} />
        </div>
      </Section>
      <div className="mt-8 grid gap-8 md:grid-cols-2 xl:grid-cols-4">
        <Section id="refused-heading" title="Refused by code" size="base">
          <p className="mt-1 text-sm text-slate-700">Buyers who hit their plan&apos;s cap or rate limit: demand your plans did not allow.</p>
          {view.refusedByCode.length === 0 ? (
            <p className="mt-2 text-sm text-slate-700">No refusals in this period.</p>
          ) : (
            <DataTable caption="Refused by code" columns={CODE_COLUMNS} rows={view.refusedByCode} rowKey={(e) => e.code} testId="refused-by-code" className="mt-2" />
          )}
        </Section>
        <Section id="errors-heading" title="Errors by code" size="base">
          {view.errorsByCode.length === 0 ? (
            <p className="mt-2 text-sm text-slate-700">No errors in this period.</p>
          ) : (
            <DataTable caption="Errors by code" columns={CODE_COLUMNS} rows={view.errorsByCode} rowKey={(e) => e.code} className="mt-2" />
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
