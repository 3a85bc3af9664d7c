import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { accountFlash } from '@/components/account/flash';
import { FlashMessage } from '@/components/ui/flash-message';
import { KeysTable } from '@/components/account/keys-table';
import { SubscriptionBadges } from '@/components/account/status-badge';
import { UsageChart } from '@/components/account/usage-chart';
import { UsageMeter } from '@/components/account/usage-meter';
import { SubmitButton } from '@/components/ui/submit-button';
import { PlanChangeForm } from '@/components/account/plan-change-form';
import { Field } from '@/components/ui/field';
import { describePlan, formatDate, formatMonthlyPrice, plural } from '@/lib/platform/format';
import { getDb } from '@/lib/platform/db';
import { requireSessionUser } from '@/lib/accounts';
import { loadSubscriptionPage } from '@/lib/dashboard';
import { KEY_NAME_MAX_LENGTH } from '@/lib/keys';
import { FORM_TOKEN_FIELD, newFormToken } from '@/lib/platform/form-submissions';
import { cancelSubscriptionAction, createReplacementKeyAction, downgradePlanAction, resumeSubscriptionAction } from '../../actions';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { Section } from '@/components/ui/section';
import { UsageAlertsSection } from '@/components/account/usage-alerts-section';
import { removeAlertWebhookAction, saveAlertWebhookAction, sendTestAlertAction } from './alert-actions';
import { accountPaths } from '@/lib/site/paths';

export const metadata: Metadata = { title: 'Subscription' };
export const dynamic = 'force-dynamic';

/** One subscription: usage, daily chart, plan changes (confirmed on ./change), cancel/resume, its keys with names and 30-day usage. The gateway's `upgrade_url` lands here. */
export default async function SubscriptionPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const query = await searchParams;
  const user = await requireSessionUser(accountPaths.subscription(id));
  const loaded = await loadSubscriptionPage(await getDb(), user.id, id);
  if (!loaded.ok) notFound();
  const {
    subscription: sub,
    live,
    canChangePlan,
    planChoices: choices,
    pendingPlan,
    dailyUsage,
    keys: subKeys,
    keyUsage: usage,
    alertWebhook: webhook,
    alertsSent,
  } = loaded.page;
  const changePath = accountPaths.changePlan(sub.id);

  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <Breadcrumb items={[{ label: 'Account', href: '/account' }, { label: 'Subscription' }]} />
      <div className="mt-3 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{sub.kbTitle}</h1>
          <p className="mt-1 text-sm text-slate-700">
            {describePlan(sub.plan)} · {plural(sub.plan.queriesPerPeriod, 'query', 'queries')} per month · {sub.plan.requestsPerMinute} per minute
          </p>
        </div>
        <SubscriptionBadges subscription={sub} />
      </div>

      <div className="mt-6">
        <FlashMessage message={accountFlash.read(query.flash)} />
      </div>

      {sub.status === 'past_due' ? (
        <p role="alert" className="mb-6 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-950">
          The last renewal payment failed, so API access is suspended (requests answer 403 forbidden). Update your payment method in Billing and invoices on
          your account page; access returns as soon as the payment succeeds.
        </p>
      ) : null}

      <Section id="usage-heading" title="This billing period" size="base" className="rounded-lg border border-slate-200 bg-white p-5">
        <p className="mt-1 text-sm text-slate-700">
          {formatDate(sub.currentPeriodStart)} – {formatDate(sub.currentPeriodEnd)}
          {sub.cancelAtPeriodEnd && live ? ` · access ends ${formatDate(sub.currentPeriodEnd)}` : ''}
          {sub.endedAt ? ` · ended ${formatDate(sub.endedAt)}` : ''}
        </p>
        <div className="mt-4">
          <UsageMeter {...sub.usage} label={`Queries used for ${sub.kbTitle}`} />
        </div>
        <h3 className="mt-6 text-sm font-semibold text-slate-900">Queries per day</h3>
        <div className="mt-2">{dailyUsage ? <UsageChart days={dailyUsage} title={`Queries per day, ${sub.kbTitle}`} /> : null}</div>
      </Section>

      {live ? (
        <Section id="plan-heading" title="Plan" size="base" className="mt-6 rounded-lg border border-slate-200 bg-white p-5">
          {sub.cancelAtPeriodEnd && !sub.listingOnSale ? (
            <p className="mt-3 text-sm text-slate-700" data-testid="listing-withdrawn">
              This knowledge base is no longer offered, so the subscription does not renew: it ends on {formatDate(sub.currentPeriodEnd)}. If the publisher
              offers it again before then, a renewal their withdrawal stopped carries on as before.
            </p>
          ) : sub.cancelAtPeriodEnd ? (
            <form action={resumeSubscriptionAction} className="mt-3 flex flex-wrap items-center gap-3">
              <input type="hidden" name="subscriptionId" value={sub.id} />
              <p className="text-sm text-slate-700">
                Cancelled: access continues until {formatDate(sub.currentPeriodEnd)}. Resume to keep your subscription and change plans again.
              </p>
              <SubmitButton pendingLabel="Resuming…">Resume subscription</SubmitButton>
            </form>
          ) : (
            <>
              {pendingPlan && !sub.planOnSale ? (
                // The publisher changed this plan's terms: the old terms are off sale, so there is nothing to keep.
                <div className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3" data-testid="pending-plan">
                  <p className="text-sm text-amber-950">
                    The publisher changed the terms of the {sub.plan.name} plan. From {formatDate(sub.currentPeriodEnd)} your plan becomes{' '}
                    <strong>{pendingPlan.name}</strong> ({formatMonthlyPrice(pendingPlan.priceCents, pendingPlan.currency)},{' '}
                    {plural(pendingPlan.queriesPerPeriod, 'query', 'queries')}). Until then your current terms and cap stay. To avoid the change, choose another
                    plan below or cancel before that date.
                  </p>
                </div>
              ) : pendingPlan ? (
                <form action={downgradePlanAction} className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3" data-testid="pending-plan">
                  <input type="hidden" name="subscriptionId" value={sub.id} />
                  <input type="hidden" name="planId" value={sub.plan.id} />
                  <p className="text-sm text-amber-950">
                    From {formatDate(sub.currentPeriodEnd)} your plan becomes <strong>{pendingPlan.name}</strong> (
                    {formatMonthlyPrice(pendingPlan.priceCents, pendingPlan.currency)}, {plural(pendingPlan.queriesPerPeriod, 'query', 'queries')}). Until then
                    the {sub.plan.name} plan and its cap stay.
                  </p>
                  <SubmitButton variant="secondary" className="mt-3" pendingLabel="Withdrawing…">
                    {`Keep the ${sub.plan.name} plan`}
                  </SubmitButton>
                </form>
              ) : null}
              {canChangePlan && choices.length > 0 ? (
                <PlanChangeForm action={changePath} current={sub.plan} choices={choices} renewal={formatDate(sub.currentPeriodEnd)} />
              ) : canChangePlan ? (
                <p className="mt-2 text-sm text-slate-700">This knowledge base has no other plan.</p>
              ) : null}
              <div className="mt-6 border-t border-slate-100 pt-4">
                <form action={cancelSubscriptionAction} className="flex flex-wrap items-center gap-3">
                  <input type="hidden" name="subscriptionId" value={sub.id} />
                  <SubmitButton
                    variant="secondary"
                    pendingLabel="Cancelling…"
                    confirm={`Cancel ${sub.plan.name}? Nothing more is charged; you keep access until ${formatDate(sub.currentPeriodEnd)} and can resume until then.`}
                  >
                    Cancel at period end
                  </SubmitButton>
                  <p className="text-sm text-slate-700">You keep access until {formatDate(sub.currentPeriodEnd)} and can undo it until then.</p>
                </form>
              </div>
            </>
          )}
        </Section>
      ) : null}

      <Section id="sub-keys-heading" title="Keys for this subscription" size="base" className="mt-6">
        <p className="mt-1 text-sm text-slate-700">A replacement key is shown once; the old key keeps working until you revoke it.</p>
        {live ? (
          <form action={createReplacementKeyAction} className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
            <input type="hidden" name="subscriptionId" value={sub.id} />
            <input type="hidden" name={FORM_TOKEN_FIELD} value={newFormToken()} />
            <Field
              label="New key's name (optional)"
              name="name"
              maxLength={KEY_NAME_MAX_LENGTH}
              autoComplete="off"
              placeholder="e.g. production server"
              className="sm:w-72"
            />
            <SubmitButton variant="secondary" pendingLabel="Creating key…" className="self-start sm:self-auto">
              Create replacement key
            </SubmitButton>
          </form>
        ) : null}
        <div className="mt-3">
          <KeysTable keys={subKeys} usage={usage} returnTo="subscription" caption={`Keys for ${sub.kbTitle}`} />
        </div>
      </Section>

      <UsageAlertsSection
        subscriptionId={sub.id}
        webhook={webhook}
        sent={alertsSent}
        removed={query.alerts === 'removed'}
        actions={{ save: saveAlertWebhookAction, send: sendTestAlertAction, remove: removeAlertWebhookAction }}
      />
    </div>
  );
}
