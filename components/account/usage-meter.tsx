import { formatDate } from '@/lib/platform/format';
import type { UsageView } from '@/lib/subscriptions';

/** Queries used this period: an accessible progress bar with the numbers also in text. */
export function UsageMeter({ used, cap, remaining, resetsAt, label }: UsageView & { label: string }) {
  const pct = cap > 0 ? Math.min(100, Math.round((used / cap) * 100)) : 0;
  const tone = pct >= 100 ? 'bg-red-600' : pct >= 80 ? 'bg-amber-500' : 'bg-brand-600';
  return (
    <div>
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-medium text-slate-900" data-testid="usage-text">
          {used.toLocaleString('en-US')} / {cap.toLocaleString('en-US')} queries used
        </span>
        <span className="text-slate-700">
          {remaining.toLocaleString('en-US')} left · resets {formatDate(resetsAt)}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={cap}
        aria-valuenow={Math.min(used, cap)}
        aria-valuetext={`${used} of ${cap} queries used, ${remaining} remaining`}
        className="mt-2 h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className={`h-3 rounded-full ${tone}`} style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
