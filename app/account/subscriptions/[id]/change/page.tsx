import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { ButtonLink } from '@/components/ui/button';
import { formatDate, formatMonthlyPrice, formatPrice, plural } from '@/lib/platform/format';
import { SubmitButton } from '@/components/ui/submit-button';
import { requireSessionUser } from '@/lib/accounts';
import { previewPlanChange, type ChargePreview } from '@/lib/billing';
import { getDb } from '@/lib/platform/db';
import { getSubscriptionForUser } from '@/lib/subscriptions';
import { changePlanAction, downgradePlanAction } from '../../../actions';
import type { IdPageProps } from '@/lib/site/page-props';
import { accountPaths } from '@/lib/site/paths';

export const metadata: Metadata = { title: 'Confirm plan change' };
export const dynamic = 'force-dynamic';

function ChargeLine({ charge }: { charge: ChargePreview }) {
  switch (charge.kind) {
    case 'test_mode':
      return <>Test mode: no charge. This server takes no payments.</>;
    case 'none':
      return <>Nothing now. The smaller price is billed from the next renewal.</>;
    case 'stripe':
      return (
        <>
          <strong>{charge.amountCents === 0 ? 'Nothing' : formatPrice(charge.amountCents, charge.currency)}</strong> now: the prorated difference for the rest
          of this period, invoiced by Stripe when you confirm.
        </>
      );
    case 'unavailable':
      return <>Stripe could not tell us the amount just now. Confirming charges the prorated difference for the rest of this period.</>;
  }
}

// The confirmation step of a plan change (docs/api.md §5.4): price, cap, when it applies and what is charged now.
export default async function ConfirmPlanChangePage({ params, searchParams }: IdPageProps) {
  const { id } = await params;
  const query = await searchParams;
  const planId = typeof query.plan === 'string' ? query.plan : '';
  const user = await requireSessionUser(accountPaths.changePlan(id, planId));
  const db = await getDb();
  const found = await getSubscriptionForUser(db, user.id, id);
  if (!found.ok) notFound();
  const sub = found.subscription;
  const back = accountPaths.subscription(sub.id);
  const result = await previewPlanChange(db, { userId: user.id, subscriptionId: sub.id, planId });
  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:px-6">
      <Breadcrumb items={[{ label: 'Account', href: '/account' }, { label: sub.kbTitle, href: back }, { label: 'Change plan' }]} />
      {!result.ok ? (
        <>
          <h1 className="mt-3 text-2xl font-semibold tracking-tight text-slate-900">This plan change is not possible</h1>
          <p className="mt-3 text-sm text-slate-700">
            {result.code === 'conflict'
              ? 'Plans can only change on an active subscription that is not cancelled. Resume the subscription first.'
              : 'That plan is not offered for this subscription (it may have been withdrawn). Pick another one on the subscription page.'}
          </p>
          <ButtonLink href={back} variant="secondary" className="mt-6">
            Back to the subscription
          </ButtonLink>
        </>
      ) : (
        <>
          <h1 className="mt-3 text-2xl font-semibold tracking-tight text-slate-900">
            {result.preview.direction === 'upgrade' ? 'Upgrade' : 'Downgrade'} to {result.preview.plan.name}?
          </h1>
          <dl
            className="mt-4 grid grid-cols-[max-content_minmax(0,1fr)] wrap-anywhere gap-x-6 gap-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm"
            data-testid="plan-change-summary"
          >
            <dt className="font-medium text-slate-600">Now</dt>
            <dd className="text-slate-900">
              {sub.plan.name}: {formatMonthlyPrice(sub.plan.priceCents, sub.plan.currency)}, {plural(sub.plan.queriesPerPeriod, 'query', 'queries')}
            </dd>
            <dt className="font-medium text-slate-600">New plan</dt>
            <dd className="text-slate-900">
              {result.preview.plan.name}: {formatMonthlyPrice(result.preview.plan.priceCents, result.preview.plan.currency)},{' '}
              {plural(result.preview.plan.queriesPerPeriod, 'query', 'queries')}, {result.preview.plan.requestsPerMinute} per minute
            </dd>
            <dt className="font-medium text-slate-600">Takes effect</dt>
            <dd className="text-slate-900">
              {result.preview.direction === 'upgrade'
                ? `Now: the new cap applies at once and the ${plural(sub.usage.used, 'query', 'queries')} used this period ${sub.usage.used === 1 ? 'carries' : 'carry'} over.`
                : `At the next renewal, ${formatDate(result.preview.effectiveAt)}. Until then you keep the ${sub.plan.name} cap.`}
            </dd>
            <dt className="font-medium text-slate-600">Charged now</dt>
            <dd className="text-slate-900" data-testid="plan-change-charge">
              <ChargeLine charge={result.preview.charge} />
            </dd>
          </dl>
          <form action={result.preview.direction === 'upgrade' ? changePlanAction : downgradePlanAction} className="mt-6 flex flex-wrap gap-3">
            <input type="hidden" name="subscriptionId" value={sub.id} />
            <input type="hidden" name="planId" value={result.preview.plan.id} />
            <SubmitButton pendingLabel={result.preview.direction === 'upgrade' ? 'Upgrading…' : 'Scheduling…'}>
              {result.preview.direction === 'upgrade' ? 'Confirm upgrade' : 'Confirm downgrade'}
            </SubmitButton>
            <ButtonLink href={back} variant="secondary">
              Cancel
            </ButtonLink>
          </form>
        </>
      )}
    </div>
  );
}
