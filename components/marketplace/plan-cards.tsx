import { cx } from '@/components/ui/cx';
import { formatInteger, formatPrice } from './format';
import type { PlanView } from './types';

/** Plans side by side; each Buy button posts the plan id to the checkout route (works without JavaScript). */
export function PlanCards({ plans, highlightIndex = 1 }: { plans: PlanView[]; highlightIndex?: number }) {
  if (plans.length === 0) return <p className="text-sm text-slate-700">This knowledge base has no plans on sale right now.</p>;
  return (
    <ul className={cx('grid gap-4', plans.length >= 3 ? 'md:grid-cols-3' : 'md:grid-cols-2')}>
      {plans.map((plan, i) => {
        const featured = i === highlightIndex && plans.length > 1;
        return (
          <li
            key={plan.id}
            className={cx(
              'relative flex flex-col rounded-xl border bg-white p-5 shadow-sm',
              featured ? 'border-brand-600 ring-1 ring-brand-600' : 'border-slate-200',
            )}
          >
            {featured ? (
              <p className="absolute -top-3 left-5 rounded-full bg-brand-600 px-2.5 py-0.5 text-xs font-semibold text-white">Most chosen</p>
            ) : null}
            <h3 className="text-base font-semibold text-slate-900">{plan.name}</h3>
            <p className="mt-2">
              <span className="text-3xl font-bold tracking-tight text-slate-900">{formatPrice(plan.priceCents, plan.currency)}</span>
              {plan.priceCents > 0 ? <span className="text-sm text-slate-600"> / month</span> : null}
            </p>
            <ul className="mt-4 space-y-2 text-sm text-slate-700">
              <li>
                <span className="font-semibold text-slate-900">{formatInteger(plan.queriesPerPeriod)}</span> queries per month
              </li>
              <li>
                Up to <span className="font-semibold text-slate-900">{formatInteger(plan.requestsPerMinute)}</span> requests per minute
              </li>
              <li>Answers with citations</li>
            </ul>
            <form method="post" action="/checkout/start" className="mt-auto pt-5">
              <input type="hidden" name="planId" value={plan.id} />
              <button
                type="submit"
                className={cx(
                  'w-full rounded-lg px-4 py-2 text-sm font-semibold shadow-sm',
                  featured ? 'bg-brand-600 text-white hover:bg-brand-700' : 'border border-slate-300 bg-white text-slate-900 hover:bg-slate-50',
                )}
              >
                Buy {plan.name}
                <span className="sr-only"> plan for {formatPrice(plan.priceCents, plan.currency)} a month</span>
              </button>
            </form>
          </li>
        );
      })}
    </ul>
  );
}
