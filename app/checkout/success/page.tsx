import type { Metadata } from 'next';
import Link from 'next/link';
import { ButtonLink } from '@/components/ui/button';
import { KeyReveal } from '@/components/billing/key-reveal';
import { getCheckoutOutcome } from '@/lib/billing';
import { getDb } from '@/lib/platform/db';
import { baseUrl } from '@/lib/platform/base-url';
import { requireSessionUser } from '@/lib/accounts';
import { accountPaths, marketplacePaths } from '@/lib/site/paths';

export const metadata: Metadata = { title: 'Purchase complete', robots: { index: false } };
export const dynamic = 'force-dynamic';

const param = (v: string | string[] | undefined) => (typeof v === 'string' && v.length <= 200 ? v : undefined);

// After a purchase (docs/api.md §5.7). With Stripe, access exists only once the webhook has run, so until then the page
// refreshes itself. The key is revealed once from its single-read handoff; a reload shows only where to find it.
export default async function CheckoutSuccessPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const sessionId = param(params.session_id);
  const handoffId = param(params.handoff);
  const here = sessionId ? `/checkout/success?session_id=${encodeURIComponent(sessionId)}` : `/checkout/success?handoff=${encodeURIComponent(handoffId ?? '')}`;
  const user = await requireSessionUser(here);
  const db = await getDb();
  const outcome =
    sessionId || handoffId
      ? await getCheckoutOutcome(db, sessionId ? { userId: user.id, checkoutSessionId: sessionId } : { userId: user.id, handoffId: handoffId! })
      : ({ status: 'pending' } as const);

  if (outcome.status === 'revealed') {
    return (
      <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
        {outcome.mode === 'test' ? (
          <p role="note" className="mb-4 rounded-md border-2 border-amber-500 bg-amber-100 px-4 py-2 text-sm font-semibold text-amber-950">
            TEST MODE purchase — no payment was taken.
          </p>
        ) : null}
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">You are subscribed</h1>
        <p className="mt-2 text-slate-700">
          {outcome.kbTitle} — {outcome.planName}. Your key works with <code>POST /kb/{outcome.kbId}/query</code>.
        </p>
        <div className="mt-6">
          <KeyReveal apiKey={outcome.plaintext} kbId={outcome.kbId} baseUrl={baseUrl()} sampleQuestion={outcome.sampleQuestion} usage={outcome.usage} />
        </div>
        <div className="mt-6 flex flex-wrap gap-3">
          <ButtonLink href={accountPaths.subscription(outcome.subscriptionId)}>Go to your subscription</ButtonLink>
          <ButtonLink href={`${marketplacePaths.knowledgeBase(outcome.kbId)}#try-it-heading`} variant="secondary">
            Try it on the knowledge base page
          </ButtonLink>
        </div>
      </div>
    );
  }

  if (outcome.status === 'completed') {
    return (
      <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Purchase complete</h1>
        <p className="mt-3 text-slate-700">
          Your subscription to {outcome.kbTitle} is active. Its key was shown once and is no longer displayed; if you did not copy it, create a replacement key
          from your subscription.
        </p>
        <ButtonLink href={accountPaths.subscription(outcome.subscriptionId)} className="mt-6">
          Manage the subscription
        </ButtonLink>
      </div>
    );
  }

  if (!sessionId) {
    return (
      <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Nothing to show</h1>
        <p className="mt-3 text-slate-700">This key has already been shown, or the link has expired. Your subscriptions and keys are in your account.</p>
        <ButtonLink href="/account" className="mt-6">
          Go to your account
        </ButtonLink>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
      {/* Until Stripe's webhook arrives; React hoists this into <head>. */}
      <meta httpEquiv="refresh" content="2" />
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Confirming your payment…</h1>
      <p role="status" aria-live="polite" className="mt-3 text-slate-700">
        Stripe has accepted your checkout; we are waiting for its confirmation to activate the subscription. This page refreshes itself every two seconds and
        will show your API key as soon as it is ready — usually within a few seconds.
      </p>
      <div className="mt-6 h-2 w-full overflow-hidden rounded bg-slate-200" aria-hidden="true">
        <div className="h-2 w-1/3 animate-pulse rounded bg-brand-600" />
      </div>
      <p className="mt-6 text-sm text-slate-600">
        Taking long? Your purchase is safe: once confirmed it appears in{' '}
        <Link href="/account" className="text-brand-700 underline">
          your account
        </Link>
        .
      </p>
    </div>
  );
}
