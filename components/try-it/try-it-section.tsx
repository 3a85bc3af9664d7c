import Link from 'next/link';
import type { ReactNode } from 'react';
import { findLiveSubscriptionId } from '@/lib/billing';
import { getDb } from '@/lib/db';
import { getSessionUser } from '@/lib/session';
import { getSubscriptionForUser } from '@/lib/subscriptions';
import { TryItForm } from './try-it-form';

/**
 * "Try it" on a knowledge-base page. Signed out: an invitation to sign in. Signed in without a subscription: a
 * prompt to buy a plan. Subscriber: a question form that runs through the gateway and counts against the cap.
 */
export async function TryItSection({ kbId, sampleQuestion }: { kbId: string; sampleQuestion?: string }) {
  const user = await getSessionUser();
  const returnTo = `/knowledge-bases/${encodeURIComponent(kbId)}`;
  let body: ReactNode;
  if (!user) {
    body = (
      <p className="mt-2 text-sm text-slate-700">
        <Link href={`/signin?callbackUrl=${encodeURIComponent(returnTo)}`} className="font-medium text-brand-700 underline">
          Sign in and subscribe to try
        </Link>{' '}
        this knowledge base from here.
      </p>
    );
  } else {
    const db = await getDb();
    const subscriptionId = await findLiveSubscriptionId(db, user.id, kbId);
    const found = subscriptionId ? await getSubscriptionForUser(db, user.id, subscriptionId) : null;
    if (!found?.ok) {
      body = <p className="mt-2 text-sm text-slate-700">Buy a plan above to ask this knowledge base questions here and through the API.</p>;
    } else if (found.subscription.status !== 'active') {
      body = (
        <p className="mt-2 text-sm text-slate-700">
          Your subscription is suspended until its payment goes through.{' '}
          <Link href={`/account/subscriptions/${found.subscription.id}`} className="font-medium text-brand-700 underline">
            See your subscription
          </Link>
        </p>
      );
    } else {
      body = <TryItForm kbId={kbId} initialUsage={found.subscription.usage} sampleQuestion={sampleQuestion} />;
    }
  }
  return (
    <section aria-labelledby="try-it-heading" className="mt-8 rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="try-it-heading" className="text-lg font-semibold text-slate-900">
        Try it
      </h2>
      {body}
    </section>
  );
}
