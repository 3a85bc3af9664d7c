import type { KeyView } from '@/lib/keys';
import type { SubscriptionStatus, SubscriptionView } from '@/lib/subscriptions';

/** A subscription's or a key's status, plus two states the pages derive: ending at period end, test mode. */
export type BadgeStatus = SubscriptionStatus | KeyView['status'] | 'cancelling' | 'test';

/** A new status fails the type check here until it has a label. */
const STYLES: Record<BadgeStatus, { label: string; className: string }> = {
  active: { label: 'Active', className: 'bg-emerald-100 text-emerald-900 ring-emerald-300' },
  past_due: { label: 'Payment due — suspended', className: 'bg-red-100 text-red-900 ring-red-300' },
  cancelled: { label: 'Cancelled', className: 'bg-slate-200 text-slate-800 ring-slate-300' },
  expired: { label: 'Expired', className: 'bg-slate-200 text-slate-800 ring-slate-300' },
  incomplete: { label: 'Incomplete', className: 'bg-amber-100 text-amber-900 ring-amber-300' },
  revoked: { label: 'Revoked', className: 'bg-slate-200 text-slate-800 ring-slate-300' },
  cancelling: { label: 'Ends at period end', className: 'bg-amber-100 text-amber-900 ring-amber-300' },
  test: { label: 'Test mode', className: 'bg-amber-100 text-amber-900 ring-amber-300' },
};

export function StatusBadge({ status }: { status: BadgeStatus }) {
  const style = STYLES[status];
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${style.className}`}>{style.label}</span>;
}

/** A subscription's badges: test mode when it is, then its status (an active one cancelled at period end says so). */
export function SubscriptionBadges({ subscription }: { subscription: Pick<SubscriptionView, 'mode' | 'status' | 'cancelAtPeriodEnd'> }) {
  const { mode, status, cancelAtPeriodEnd } = subscription;
  return (
    <div className="flex gap-1">
      {mode === 'test' ? <StatusBadge status="test" /> : null}
      <StatusBadge status={cancelAtPeriodEnd && status === 'active' ? 'cancelling' : status} />
    </div>
  );
}
