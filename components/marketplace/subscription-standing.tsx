import Link from 'next/link';
import { UsageMeter } from '@/components/account/usage-meter';
import { formatDate } from '@/lib/platform/format';
import type { SubscriberStanding } from '@/lib/subscriptions';
import { accountPaths } from '@/lib/site/paths';

const linkClass = 'font-semibold text-brand-700 underline-offset-2 hover:underline';

// Above the plan cards for a buyer who already subscribes: their plan and usage, or why access is suspended.
export function SubscriptionStanding({ standing, canUpgrade }: { standing: SubscriberStanding; canUpgrade: boolean }) {
  const manageHref = accountPaths.subscription(standing.subscriptionId);
  if (standing.state !== 'active') {
    const suspended = standing.state === 'suspended';
    return (
      <div className="rounded-xl border border-red-300 bg-red-50 p-5 text-sm text-red-950" data-testid="subscription-standing">
        <h3 className="text-base font-semibold">
          {suspended ? 'Your access is suspended until payment' : 'Your subscription is waiting for its first payment'}
        </h3>
        <p className="mt-1">
          {suspended
            ? `The last renewal payment for your ${standing.planName} plan did not go through, so API calls and Try it are refused until it is paid.`
            : `Your ${standing.planName} plan starts as soon as the payment goes through.`}{' '}
          <Link prefetch={false} href={manageHref} className="font-semibold underline">
            See your subscription
          </Link>
        </p>
      </div>
    );
  }
  return (
    <div className="rounded-xl border border-brand-100 bg-brand-50 p-5" data-testid="subscription-standing">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 className="text-base font-semibold text-slate-900">You are subscribed to the {standing.planName} plan</h3>
        <Link prefetch={false} href={manageHref} className={linkClass}>
          Manage your subscription
        </Link>
      </div>
      {standing.endsAt ? (
        <p className="mt-1 text-sm text-slate-800">
          Cancelled: access ends <time dateTime={standing.endsAt}>{formatDate(standing.endsAt)}</time> unless you keep it from your subscription page.
        </p>
      ) : null}
      <div className="mt-4">
        <UsageMeter {...standing.usage} label="Queries used this billing period" />
      </div>
      <p className="mt-3 text-sm text-slate-800">
        {canUpgrade
          ? 'An upgrade takes effect at once: the bigger cap applies now and the queries used this period carry over. You confirm the price first.'
          : 'You are on the largest plan of this knowledge base.'}
      </p>
    </div>
  );
}
