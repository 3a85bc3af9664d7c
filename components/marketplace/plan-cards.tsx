import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';
import { formatAmount, formatPrice, plural } from '@/lib/platform/format';
import type { PlanOffer, PlanView } from '@/lib/subscriptions';
import { accountPaths } from '@/lib/site/paths';

export interface PlanCardItem {
  plan: PlanView;
  offer: PlanOffer;
}

// Plans side by side (docs/api.md §5.1); each footer offers what fits the visitor. Every action is a plain form, so it
// works without JavaScript.
export function PlanCards({ items, mostChosenPlanId = null }: { items: PlanCardItem[]; mostChosenPlanId?: string | null }) {
  if (items.length === 0) return <p className="text-sm text-slate-700">This knowledge base has no plans on sale right now.</p>;
  const currentIndex = items.findIndex((item) => item.offer.kind === 'current');
  const featuredIndex = currentIndex >= 0 ? currentIndex : items.length > 1 ? items.findIndex((item) => item.plan.id === mostChosenPlanId) : -1;
  return (
    // Four plans sit two by two: four across the plans' column would squeeze them.
    <ul className={cx('grid gap-4', items.length === 3 ? 'md:grid-cols-3' : 'sm:grid-cols-2')}>
      {items.map(({ plan, offer }, i) => {
        const featured = i === featuredIndex;
        return (
          <li
            key={plan.id}
            className={cx(
              'relative flex flex-col rounded-xl border bg-white p-5 shadow-sm',
              featured ? 'border-brand-600 ring-1 ring-brand-600' : 'border-slate-200',
            )}
          >
            {featured ? (
              <p className="absolute -top-3 left-5 rounded-full bg-brand-600 px-2.5 py-0.5 text-xs font-semibold text-white">
                {offer.kind === 'current' ? 'Your plan' : 'Most chosen'}
              </p>
            ) : null}
            <h3 className="text-base font-semibold text-slate-900">{plan.name}</h3>
            <p className="mt-2">
              {/* A plan named "Free" would read "Free / Free": its price is then written as the amount. */}
              <span className="text-3xl font-bold tracking-tight text-slate-900">
                {isNamedFree(plan) ? formatAmount(0, plan.currency).replace(/\.00$/, '') : formatPrice(plan.priceCents, plan.currency)}
              </span>
              {plan.priceCents > 0 ? <span className="text-sm text-slate-600"> / month</span> : null}
            </p>
            <ul className="mt-4 space-y-2 text-sm text-slate-700">
              <li>
                <span className="font-semibold text-slate-900">{plural(plan.queriesPerPeriod, 'query', 'queries')}</span> a month
              </li>
              <li>
                Up to <span className="font-semibold text-slate-900">{plural(plan.requestsPerMinute, 'request')}</span> a minute
              </li>
              <li>Answers with citations</li>
            </ul>
            <div className="mt-auto pt-5">
              <PlanAction plan={plan} offer={offer} featured={featured} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** Not formatPrice: its "Free" would read "for Free a month". */
export function planPriceSuffix(plan: Pick<PlanView, 'priceCents' | 'currency'>): string {
  return plan.priceCents === 0 ? ' plan, free' : ` plan for ${formatPrice(plan.priceCents, plan.currency)} a month`;
}

/** Such a name cannot also be its price or its button's verb. */
const isNamedFree = (plan: Pick<PlanView, 'name' | 'priceCents'>) => plan.priceCents === 0 && /^free( plan)?$/i.test(plan.name.trim());

function PlanAction({ plan, offer, featured }: { plan: PlanView; offer: PlanOffer; featured: boolean }) {
  const price = <span className="sr-only">{planPriceSuffix(plan)}</span>;
  switch (offer.kind) {
    case 'buy':
      return (
        <form method="post" action="/checkout/start">
          <input type="hidden" name="planId" value={plan.id} />
          <Button type="submit" variant={featured ? 'primary' : 'secondary'} className="w-full">
            {/* Nothing to pay for a free plan: "Get", not "Buy". */}
            {isNamedFree(plan) ? 'Start free' : `${plan.priceCents === 0 ? 'Get' : 'Buy'} ${plan.name}`}
            {isNamedFree(plan) ? null : price}
          </Button>
        </form>
      );
    case 'upgrade':
    case 'downgrade':
      // A GET: nothing changes until the buyer confirms on the next page.
      return (
        <form method="get" action={accountPaths.changePlan(offer.subscriptionId)}>
          <input type="hidden" name="plan" value={plan.id} />
          <Button type="submit" variant={offer.kind === 'upgrade' ? 'primary' : 'secondary'} className="w-full">
            {offer.kind === 'upgrade' ? 'Upgrade' : 'Downgrade'} to {plan.name}
            {price}
          </Button>
        </form>
      );
    case 'current':
      return <FooterNote tone="current">You are on this plan</FooterNote>;
    case 'unavailable':
      return <FooterNote tone="muted">{offer.reason === 'cancelling' ? 'Resume your subscription to change plan' : 'Not available until paid'}</FooterNote>;
  }
}

/** Button height, so every card's footer lines up. */
function FooterNote({ tone, children }: { tone: 'current' | 'muted'; children: ReactNode }) {
  return (
    <p
      className={cx('rounded-lg px-4 py-2 text-center text-sm', tone === 'current' ? 'bg-brand-50 font-semibold text-brand-700' : 'bg-slate-50 text-slate-600')}
    >
      {children}
    </p>
  );
}
