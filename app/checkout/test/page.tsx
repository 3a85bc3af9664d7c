import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { withFlash } from '@/components/account/flash';
import { SubmitButton } from '@/components/ui/submit-button';
import { formatPrice } from '@/lib/platform/format';
import { findLiveSubscriptionId, findPurchasablePlan } from '@/lib/billing';
import { getDb } from '@/lib/platform/db';
import { requireSessionUser, requireVerifiedEmail, VERIFY_FIRST_PATH } from '@/lib/accounts';
import { isStripeConfigured } from '@/lib/billing';
import { FORM_TOKEN_FIELD, newFormToken } from '@/lib/platform/form-submissions';
import { completeTestPurchaseAction } from './actions';
import { marketplacePaths } from '@/lib/site/paths';

export const metadata: Metadata = { title: 'Test checkout' };
export const dynamic = 'force-dynamic';

const ERRORS: Record<string, string> = {
  already_subscribed: 'You already have a subscription to this knowledge base.',
  invalid_plan: 'This plan is no longer available.',
};

export default async function TestCheckoutPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const planId = typeof params.planId === 'string' ? params.planId : '';
  const user = await requireSessionUser(`/checkout/test?planId=${encodeURIComponent(planId)}`);
  // A deployment that takes real payments has no test checkout.
  if (isStripeConfigured()) notFound();
  const db = await getDb();
  if (!(await requireVerifiedEmail(db, user.id)).ok) redirect(VERIFY_FIRST_PATH);
  const plan = planId ? await findPurchasablePlan(db, planId) : null;
  if (!plan) notFound();
  const existing = await findLiveSubscriptionId(db, user.id, plan.kbId);
  if (existing) redirect(withFlash(`/account/subscriptions/${existing}`, 'already_subscribed'));
  const error = typeof params.error === 'string' ? (ERRORS[params.error] ?? 'The purchase could not be completed.') : null;

  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
      <div role="note" className="rounded-md border-2 border-amber-500 bg-amber-100 px-4 py-3 font-semibold text-amber-950">
        TEST MODE — no payment is taken and no card is needed. This server has no Stripe keys configured; the key you get starts with <code>alm_sk_test_</code>.
      </div>
      <h1 className="mt-6 text-2xl font-semibold tracking-tight text-slate-900">Test checkout</h1>
      {error ? (
        <p role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900">
          {error}
        </p>
      ) : null}
      <dl className="mt-6 grid grid-cols-[max-content_minmax(0,1fr)] wrap-anywhere gap-x-6 gap-y-2 rounded-lg border border-slate-200 bg-white p-5 text-sm">
        <dt className="font-medium text-slate-600">Knowledge base</dt>
        <dd className="text-slate-900">{plan.kbTitle}</dd>
        <dt className="font-medium text-slate-600">Plan</dt>
        <dd className="text-slate-900">{plan.planName}</dd>
        <dt className="font-medium text-slate-600">Price</dt>
        <dd className="text-slate-900">{formatPrice(plan.priceCents, plan.currency)} / month (not charged in test mode)</dd>
        <dt className="font-medium text-slate-600">Queries</dt>
        <dd className="text-slate-900">
          {plan.queriesPerPeriod.toLocaleString('en-US')} per month, {plan.requestsPerMinute} per minute
        </dd>
        <dt className="font-medium text-slate-600">Buyer</dt>
        <dd className="text-slate-900">{user.email}</dd>
      </dl>
      <form action={completeTestPurchaseAction} className="mt-6 flex flex-wrap items-center gap-4">
        <input type="hidden" name="planId" value={plan.planId} />
        <input type="hidden" name={FORM_TOKEN_FIELD} value={newFormToken()} />
        <SubmitButton pendingLabel="Completing purchase…">Complete test purchase</SubmitButton>
        <Link href={marketplacePaths.knowledgeBase(plan.kbId)} className="text-sm font-medium text-brand-700 underline">
          Cancel
        </Link>
      </form>
    </div>
  );
}
