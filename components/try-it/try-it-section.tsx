import Link from 'next/link';
import type { ReactNode } from 'react';
import type { SubscriberStanding } from '@/lib/subscriptions';
import { TryItForm, type TryItAction } from './try-it-form';
import { Section } from '@/components/ui/section';

/**
 * "Try it" on a knowledge-base page. Signed out: an invitation to sign in. Signed in without a subscription: a
 * prompt to buy a plan. Subscriber: a question form that runs through the gateway and counts against the cap.
 * The page looks the standing up once and hands it to both this section and the plans above it, and passes in the
 * server action that answers (it lives beside the page).
 */
export function TryItSection({
  kbId,
  signedIn,
  standing,
  sampleQuestion,
  action,
}: {
  kbId: string;
  signedIn: boolean;
  standing: SubscriberStanding | null;
  sampleQuestion?: string;
  action: TryItAction;
}) {
  const returnTo = `/knowledge-bases/${encodeURIComponent(kbId)}`;
  let body: ReactNode;
  if (!signedIn) {
    body = (
      <p className="mt-2 text-sm text-slate-700">
        <Link href={`/signin?callbackUrl=${encodeURIComponent(returnTo)}`} className="font-medium text-brand-700 underline">
          Sign in and subscribe to try
        </Link>{' '}
        this knowledge base from here.
      </p>
    );
  } else if (!standing) {
    body = <p className="mt-2 text-sm text-slate-700">Buy a plan above to ask this knowledge base questions here and through the API.</p>;
  } else if (standing.state !== 'active') {
    body = (
      <p className="mt-2 text-sm text-slate-700">
        Your subscription is suspended until its payment goes through.{' '}
        <Link href={`/account/subscriptions/${standing.subscriptionId}`} className="font-medium text-brand-700 underline">
          See your subscription
        </Link>
      </p>
    );
  } else {
    body = <TryItForm kbId={kbId} action={action} initialUsage={standing.usage} sampleQuestion={sampleQuestion} />;
  }
  return (
    <Section id="try-it-heading" title="Try it" size="lg" className="mt-8 rounded-lg border border-slate-200 bg-white p-5">
      {body}
    </Section>
  );
}
