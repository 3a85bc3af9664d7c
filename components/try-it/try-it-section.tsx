import Link from 'next/link';
import type { ReactNode } from 'react';
import { MAX_QUERY_CHARS } from '@/lib/gateway';
import type { SubscriberStanding } from '@/lib/subscriptions';
import { previewCostNote, subscriberCostNote } from './notes';
import { TryItForm, type TryItAction } from './try-it-form';
import { Section } from '@/components/ui/section';
import { accountPaths, marketplacePaths } from '@/lib/site/paths';

// "Try it" on a knowledge-base page (docs/api.md §10.6): a subscriber's question is counted against the cap; anyone
// else asks free preview questions (`preview`, null when the knowledge base offers none).
export function TryItSection({
  kbId,
  signedIn,
  standing,
  sampleQuestions,
  preview,
  actions,
  className,
}: {
  kbId: string;
  signedIn: boolean;
  standing: SubscriberStanding | null;
  sampleQuestions: string[];
  preview: { limit: number; remaining: number } | null;
  actions: { subscriber: TryItAction; preview: TryItAction };
  className?: string;
}) {
  const returnTo = marketplacePaths.knowledgeBase(kbId);
  let body: ReactNode;
  if (standing && standing.state !== 'active') {
    body = (
      <p className="mt-2 text-sm text-slate-700">
        Your subscription is suspended until its payment goes through.{' '}
        <Link prefetch={false} href={accountPaths.subscription(standing.subscriptionId)} className="font-medium text-brand-700 underline">
          See your subscription
        </Link>
      </p>
    );
  } else if (standing) {
    body = (
      <TryItForm
        kbId={kbId}
        action={actions.subscriber}
        costNote={subscriberCostNote(standing.usage)}
        sampleQuestions={sampleQuestions}
        maxQueryChars={MAX_QUERY_CHARS}
      />
    );
  } else if (preview) {
    body = (
      <TryItForm
        kbId={kbId}
        action={actions.preview}
        costNote={previewCostNote(preview)}
        sampleQuestions={sampleQuestions}
        maxQueryChars={MAX_QUERY_CHARS}
        disabled={preview.remaining === 0}
      />
    );
  } else if (!signedIn) {
    body = (
      <p className="mt-2 text-sm text-slate-700">
        <Link prefetch={false} href={`/signin?callbackUrl=${encodeURIComponent(returnTo)}`} className="font-medium text-brand-700 underline">
          Sign in and subscribe to try
        </Link>{' '}
        this knowledge base from here.
      </p>
    );
  } else {
    body = <p className="mt-2 text-sm text-slate-700">Buy a plan to ask this knowledge base questions here and through the API.</p>;
  }
  const asking = standing?.state === 'active' || (!standing && preview);
  return (
    <Section id="try-it-heading" title="Try it" size="lg" className={className}>
      {!standing && preview ? <p className="mt-1 text-sm text-slate-700">Ask a few questions free before you buy: no account needed.</p> : null}
      {body}
      {!asking && sampleQuestions.length > 0 ? (
        <>
          <h3 className="mt-4 text-sm font-medium text-slate-900">Questions it answers</h3>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-800">
            {sampleQuestions.map((q) => (
              <li key={q}>{q}</li>
            ))}
          </ul>
        </>
      ) : null}
    </Section>
  );
}
