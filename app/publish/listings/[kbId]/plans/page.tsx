import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { publishFlash } from '@/components/publish/flash';
import { FlashMessage } from '@/components/ui/flash-message';
import { ListingNav } from '@/components/publish/listing-nav';
import { publishPaths } from '@/lib/site/paths';
import { PlanForm } from '@/components/publish/plan-form';
import { ListingStatusBadge } from '@/components/publish/status-badge';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { formatInteger, formatPrice, plural } from '@/lib/platform/format';
import { SubmitButton } from '@/components/ui/submit-button';
import { requireSessionUser } from '@/lib/accounts';
import { isStripeConfigured } from '@/lib/billing';
import { listPlansForConsole, PLAN_LIMITS, requireOwnedKnowledgeBase, type ConsolePlan } from '@/lib/publishing';
import { getDb } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { newFormToken } from '@/lib/platform/form-submissions';
import { createPlanAction, deletePlanAction, editPlanAction, retirePlanAction } from '../../../actions';

// A listing's plans (docs/api.md §9.2): an edited plan with subscribers is replaced, never changed under them.

type Params = Promise<{ kbId: string }>;

const load = cache(async (kbId: string) => {
  const user = await requireSessionUser(publishPaths.plans(kbId));
  return requireOwnedKnowledgeBase(await getDb(), user.id, kbId);
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const owned = await load(decodeURIComponent((await params).kbId));
  return { title: owned.ok ? `Plans · ${owned.kb.title}` : 'Listing not found' };
}

const priceText = (cents: number) => (cents === 0 ? '0' : (cents / 100).toFixed(cents % 100 === 0 ? 0 : 2));

export default async function PlansPage({ params, searchParams }: { params: Params; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const kbId = decodeURIComponent((await params).kbId);
  const owned = await load(kbId);
  if (!owned.ok) notFound();
  const { kb } = owned;
  const plans = await listPlansForConsole(await getDb(), kb.id);
  const freeMax = getEnv().FREE_PLAN_MAX_QUERIES;
  const active = plans.filter((p) => p.active);
  const retired = plans.filter((p) => !p.active);

  return (
    <div>
      <Breadcrumb
        items={[{ label: 'Your listings', href: publishPaths.overview }, { label: kb.title, href: publishPaths.listing(kb.id) }, { label: 'Plans' }]}
      />
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Plans · {kb.title}</h1>
        <ListingStatusBadge status={kb.status} />
      </div>
      <ListingNav kbId={kb.id} current="plans" />
      <div className="mt-6">
        <FlashMessage message={publishFlash.read((await searchParams).flash)} />
      </div>
      <p className="max-w-3xl text-sm text-slate-700">
        A new price, cap or rate limit applies to new purchases at once, and to current subscribers at their next renewal, never in the middle of a period. A
        plan with subscribers is retired rather than deleted.{' '}
        {isStripeConfigured() ? 'Paid plans are created as Stripe prices.' : 'This server takes no payments (test mode).'}
      </p>

      <section aria-labelledby="active-plans" className="mt-6">
        <h2 id="active-plans" className="text-lg font-semibold text-slate-900">
          For sale ({active.length})
        </h2>
        {active.length === 0 ? <p className="mt-2 text-sm text-slate-700">No plans yet: add one below. A listing needs at least one to be published.</p> : null}
        <ul className="mt-3 grid gap-4">
          {active.map((plan) => (
            <li key={plan.id} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <PlanSummary plan={plan} />
              <details className="mt-4 rounded-lg border border-slate-200 p-4 open:bg-slate-50">
                <summary className="cursor-pointer text-sm font-medium text-brand-700">Edit {plan.name}</summary>
                <div className="mt-4">
                  <PlanForm
                    action={editPlanAction}
                    kbId={kb.id}
                    planId={plan.id}
                    idPrefix={`edit-${plan.id}`}
                    freeMax={freeMax}
                    limits={PLAN_LIMITS}
                    note={
                      plan.subscribers > 0
                        ? `${plan.subscribers} subscriber${plan.subscribers === 1 ? '' : 's'}: new terms become a new plan; they move to it at their next renewal.`
                        : undefined
                    }
                    initial={{
                      name: plan.name,
                      price: priceText(plan.priceCents),
                      currency: plan.currency,
                      queriesPerPeriod: String(plan.queriesPerPeriod),
                      requestsPerMinute: String(plan.requestsPerMinute),
                    }}
                    submitLabel="Save plan"
                  />
                </div>
              </details>
              <div className="mt-3 flex flex-wrap gap-2">
                <form action={retirePlanAction}>
                  <input type="hidden" name="kbId" value={kb.id} />
                  <input type="hidden" name="planId" value={plan.id} />
                  <SubmitButton variant="secondary" size="sm" pendingLabel="Retiring…">
                    {`Retire ${plan.name}`}
                  </SubmitButton>
                </form>
                {plan.subscribers === 0 && plan.arriving === 0 ? (
                  <form action={deletePlanAction}>
                    <input type="hidden" name="kbId" value={kb.id} />
                    <input type="hidden" name="planId" value={plan.id} />
                    <SubmitButton variant="ghost" size="sm" pendingLabel="Deleting…" confirm={`Delete the ${plan.name} plan? This cannot be undone.`}>
                      {`Delete ${plan.name}`}
                    </SubmitButton>
                  </form>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="new-plan" className="mt-8 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="new-plan" className="text-lg font-semibold text-slate-900">
          Add a plan
        </h2>
        <div className="mt-4">
          <PlanForm
            action={createPlanAction}
            kbId={kb.id}
            idPrefix="new-plan"
            formToken={newFormToken()}
            freeMax={freeMax}
            limits={PLAN_LIMITS}
            initial={{ name: '', price: '', currency: 'usd', queriesPerPeriod: '', requestsPerMinute: '60' }}
            submitLabel="Add plan"
          />
        </div>
      </section>

      {retired.length > 0 ? (
        <section aria-labelledby="retired-plans" className="mt-8">
          <h2 id="retired-plans" className="text-lg font-semibold text-slate-900">
            Retired ({retired.length})
          </h2>
          <p className="mt-1 text-sm text-slate-700">Not for sale. Their subscribers keep them until they renew onto a replacement, cancel or expire.</p>
          <ul className="mt-3 grid gap-3">
            {retired.map((plan) => (
              <li key={plan.id} className="rounded-xl border border-slate-200 bg-slate-50 p-4">
                <PlanSummary plan={plan} replacedBy={plans.find((p) => p.id === plan.replacedByPlanId)?.name} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

function PlanSummary({ plan, replacedBy }: { plan: ConsolePlan; replacedBy?: string }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-2">
      <div>
        <h3 className="text-base font-semibold text-slate-900">{plan.name}</h3>
        <p className="text-sm text-slate-700">
          {formatPrice(plan.priceCents, plan.currency)}
          {plan.priceCents > 0 ? ' a month' : ' · no card'} · {plural(plan.queriesPerPeriod, 'query', 'queries')} a month ·{' '}
          {plural(plan.requestsPerMinute, 'request')} a minute
        </p>
        {replacedBy ? <p className="text-sm text-slate-700">Replaced by {replacedBy}: subscribers move at their next renewal.</p> : null}
      </div>
      <p className="text-sm text-slate-700">
        {formatInteger(plan.subscribers)} subscriber{plan.subscribers === 1 ? '' : 's'}
        {plan.arriving > 0 ? ` · ${formatInteger(plan.arriving)} arriving at renewal` : ''}
      </p>
    </div>
  );
}
