import Link from 'next/link';
import { buttonClasses } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';
import { DataTable, type DataColumn } from '@/components/ui/data-table';
import { formatAmount, formatDate, formatDayMonth, formatInteger, formatMonth } from '@/lib/platform/format';
import { Section } from '@/components/ui/section';
import { AutoSubmitSelect } from '@/components/marketplace/auto-submit-select';
import { Button } from '@/components/ui/button';
import { ANALYTICS_DAYS, analyticsPeriodQuery, type AnalyticsView as Analytics, type DailyOutcomes } from '@/lib/publishing';

/** Stacked from the bottom. */
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

const REFUSAL_NAMES: Record<string, string> = { query_cap_exceeded: 'Cap reached', rate_limit_exceeded: 'Rate limited' };

const DAILY_COLUMNS: DataColumn<DailyOutcomes>[] = [
  { header: 'Day (UTC)', cell: (d) => formatDate(d.day), className: 'sm:whitespace-nowrap' },
  ...SERIES.map((s): DataColumn<DailyOutcomes> => ({ header: s.label, cell: (d) => d[s.key], numeric: true })),
];
const CODE_COLUMNS: DataColumn<Analytics['errorsByCode'][number]>[] = [
  {
    header: 'Code',
    cell: (e) => {
      const name = REFUSAL_NAMES[e.code];
      return name ? (
        <>
          {name} <code className="text-xs text-slate-600">({e.code})</code>
        </>
      ) : (
        <code className="text-xs">{e.code}</code>
      );
    },
  },
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

// Publisher analytics (docs/api.md §9.4). The chart is HTML bars, not SVG, so its text keeps its size on a phone.
export function OutcomesChart({
  days,
  previous,
  previousDays = days.length,
  comparison = `the previous ${days.length} days`,
  title,
}: {
  days: DailyOutcomes[];
  previous: Totals;
  /** A month is compared with the same days of the month before. */
  previousDays?: number;
  /** "the previous 30 days", "Oct 2026". */
  comparison?: string;
  title: string;
}) {
  const max = Math.max(1, ...days.map(dayTotal));
  const niceMax = max <= 1 ? 1 : max <= 4 ? Math.ceil(max / 2) * 2 : Math.ceil(max / 4) * 4;
  const previousAverage = previousDays === 0 ? 0 : dayTotal(previous) / previousDays;
  const totals = days.reduce((t, d) => t + dayTotal(d), 0);
  const summary =
    days.length === 0
      ? 'No data.'
      : `From ${formatDate(days[0]!.day)} to ${formatDate(days.at(-1)!.day)}: ${SERIES.map((s) => `${days.reduce((n, d) => n + d[s.key], 0)} ${s.label.toLowerCase()}`).join(', ')}; ${totals} in all, against ${dayTotal(previous)} in ${comparison}.`;
  const tickEvery = days.length > 14 ? 7 : days.length;
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
            <div
              key={d.day}
              className="flex h-full flex-1 flex-col-reverse"
              title={`${formatDate(d.day)}: ${SERIES.map((s) => `${d[s.key]} ${s.label.toLowerCase()}`).join(', ')}`}
            >
              {SERIES.map((s) => (d[s.key] > 0 ? <div key={s.key} style={{ height: pct(d[s.key]), background: s.color }} /> : null))}
            </div>
          ))}
        </div>
        {previousAverage > 0 ? (
          <div
            aria-hidden="true"
            className="absolute inset-x-0 border-t-2 border-dashed border-slate-900/60"
            style={{ bottom: pct(previousAverage) }}
            data-testid="previous-average"
          >
            <span className="absolute right-0 -translate-y-full rounded bg-white/90 px-1 text-xs text-slate-800">
              {comparison.replace(/^the /, '')}: {formatInteger(Math.round(previousAverage * 10) / 10)} a day
            </span>
          </div>
        ) : null}
      </div>
      {days.length > 0 ? (
        <div aria-hidden="true" className="relative ml-8 mt-1 h-4 text-xs text-slate-700">
          {days.map((d, i) =>
            i === 0 || i === days.length - 1 || (i % tickEvery === 0 && days.length - 1 - i >= tickEvery / 2) ? (
              <span
                key={d.day}
                className={cx(
                  'absolute whitespace-nowrap',
                  i === 0 ? 'left-0' : i === days.length - 1 ? 'right-0' : '-translate-x-1/2',
                  i !== 0 && i !== days.length - 1 && 'hidden sm:inline',
                )}
                style={i === 0 || i === days.length - 1 ? undefined : { left: `${((i + 0.5) / days.length) * 100}%` }}
              >
                {formatDayMonth(d.day)}
              </span>
            ) : null,
          )}
        </div>
      ) : null}
      <figcaption className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
        {SERIES.map((s) => (
          <span key={s.key} className="inline-flex items-center gap-1">
            <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ background: s.color }} /> {s.label}
          </span>
        ))}
        <span className="inline-flex items-center gap-1">
          <span aria-hidden="true" className="inline-block w-4 border-t-2 border-dashed border-slate-900/60" /> Daily average in {comparison}
        </span>
      </figcaption>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer font-medium text-brand-700">Show the numbers as a table</summary>
        <DataTable caption={title} columns={DAILY_COLUMNS} rows={days} rowKey={(d) => d.day} className="mt-2" />
      </details>
    </figure>
  );
}

export function changeText(now: number, before: number, comparison: string): string {
  const diff = now - before;
  if (diff === 0) return `same as ${comparison}`;
  return `${diff > 0 ? '+' : '−'}${formatInteger(Math.abs(diff))} vs ${comparison}`;
}

/** While a month is in progress it is compared with the same days of the month before ("Oct 1–20"). */
export function comparisonText(view: Pick<Analytics, 'period' | 'days' | 'previousFrom' | 'previousTo'>): string {
  if (view.period.kind === 'days') return `the previous ${view.days} days`;
  const end = new Date(`${view.previousTo}T00:00:00.000Z`);
  const wholeMonth = new Date(end.getTime() + 86_400_000).getUTCDate() === 1;
  return wholeMonth ? formatMonth(view.previousFrom.slice(0, 7)) : `${formatDayMonth(view.previousFrom)}–${end.getUTCDate()}`;
}

const shiftMonth = (month: string, by: number) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 + by, 1)).toISOString().slice(0, 7);
};

/** Everything is in the URL, so each view can be bookmarked and exported. */
function PeriodControls({ view, basePath, months }: { view: Analytics; basePath: string; months: string[] }) {
  const pill = (active: boolean) =>
    cx('rounded-md px-3 py-1.5 font-medium', active ? 'bg-brand-700 text-white' : 'bg-white text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50');
  const month = view.period.kind === 'month' ? view.period.month : null;
  const before = month ? shiftMonth(month, -1) : null;
  const after = month ? shiftMonth(month, 1) : null;
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <nav aria-label="Period" className="flex gap-1">
        {ANALYTICS_DAYS.map((n) => (
          <Link
            key={n}
            href={`${basePath}?days=${n}`}
            aria-current={view.period.kind === 'days' && view.days === n ? 'page' : undefined}
            className={pill(view.period.kind === 'days' && view.days === n)}
          >
            {n} days
          </Link>
        ))}
      </nav>
      <form action={basePath} method="get" className="flex items-center gap-2">
        <label htmlFor="analytics-month" className="text-slate-700">
          Month
        </label>
        <AutoSubmitSelect
          id="analytics-month"
          name="month"
          defaultValue={month ?? ''}
          className="rounded-lg border border-slate-300 bg-white py-1.5 pl-2 pr-8 text-sm text-slate-900 shadow-sm"
          options={[...(month ? [] : [{ value: '', label: 'Choose a month' }]), ...months.map((m) => ({ value: m, label: formatMonth(m) }))]}
        />
        <noscript>
          <Button type="submit" variant="secondary" size="sm">
            Show
          </Button>
        </noscript>
      </form>
      {month ? (
        <nav aria-label="Other months" className="flex gap-1">
          {before && months.includes(before) ? (
            <Link href={`${basePath}?month=${before}`} className={pill(false)}>
              <span aria-hidden="true">← </span>
              {formatMonth(before)}
            </Link>
          ) : null}
          {after && months.includes(after) ? (
            <Link href={`${basePath}?month=${after}`} className={pill(false)}>
              {formatMonth(after)}
              <span aria-hidden="true"> →</span>
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}

const dayCount = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;

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

export function AnalyticsPanel({ view, title, basePath, months }: { view: Analytics; title: string; basePath: string; months: string[] }) {
  const comparison = comparisonText(view);
  const heading = view.period.kind === 'month' ? `Requests per day in ${formatMonth(view.period.month)}` : `Requests per day, last ${view.days} days`;
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <PeriodControls view={view} basePath={basePath} months={months} />
        <a href={`${basePath}/export?${analyticsPeriodQuery(view.period)}`} className={buttonClasses({ variant: 'secondary', size: 'sm' })} download>
          Export CSV
        </a>
      </div>
      <p className="mt-3 text-sm text-slate-700" data-testid="analytics-period">
        {formatDate(view.from)} to {formatDate(view.to)} (UTC), compared with {comparison}.
      </p>
      <dl className="mt-4 grid grid-cols-2 gap-3 md:grid-cols-4 xl:grid-cols-7">
        {SERIES.map((s) => (
          <Stat
            key={s.key}
            label={s.label}
            value={formatInteger(view.totals[s.key])}
            change={changeText(view.totals[s.key], view.previousTotals[s.key], comparison)}
            testId={`stat-${s.key}`}
          />
        ))}
        <Stat label="Latency p50" value={latencyText(view.latency.p50)} />
        <Stat label="Latency p95" value={latencyText(view.latency.p95)} />
      </dl>
      <Section id="daily-heading" title={heading} size="lg" className="mt-8">
        <div className="mt-3">
          <OutcomesChart
            days={view.daily}
            previous={view.previousTotals}
            previousDays={dayCount(view.previousFrom, view.previousTo)}
            comparison={comparison}
            title={`${title}: ${heading.toLowerCase()}`}
          />
        </div>
      </Section>
      <div className="mt-8 grid gap-8 md:grid-cols-2 xl:grid-cols-4">
        <Section id="refused-heading" title="Refused by code" size="base">
          <p className="mt-1 text-sm text-slate-700">Buyers who hit their plan&apos;s cap or rate limit: demand your plans did not allow.</p>
          {view.refusedByCode.length === 0 ? (
            <p className="mt-2 text-sm text-slate-700">No refusals in this period.</p>
          ) : (
            <DataTable
              caption="Refused by code"
              columns={CODE_COLUMNS}
              rows={view.refusedByCode}
              rowKey={(e) => e.code}
              testId="refused-by-code"
              className="mt-2"
            />
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
            <DataTable
              caption="Active subscribers by plan"
              columns={SUBSCRIBER_COLUMNS}
              rows={view.subscribersByPlan}
              rowKey={(p, i) => `${p.plan}-${i}`}
              className="mt-2"
            />
          )}
        </Section>
        <Section id="revenue-heading" title="Revenue by month" size="base">
          {view.revenueByMonth.length === 0 ? (
            <p className="mt-2 text-sm text-slate-700">No paid periods yet.</p>
          ) : (
            <DataTable
              caption="Revenue by month"
              columns={REVENUE_COLUMNS}
              rows={view.revenueByMonth}
              rowKey={(r) => `${r.month}-${r.currency}`}
              className="mt-2"
            />
          )}
        </Section>
      </div>
      <p className="mt-8 text-xs text-slate-600">
        Daily totals in UTC, updated within seconds. Questions are never stored, and buyers are never named. Test-console questions are not counted.
      </p>
    </div>
  );
}
