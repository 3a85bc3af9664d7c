import type { Metadata } from 'next';
import Link from 'next/link';
import { accountFlash } from '@/components/account/flash';
import { FlashMessage } from '@/components/ui/flash-message';
import { KeysTable } from '@/components/account/keys-table';
import { SubscriptionBadges } from '@/components/account/status-badge';
import { UsageMeter } from '@/components/account/usage-meter';
import { SubmitButton } from '@/components/ui/submit-button';
import { describePlan, formatDate } from '@/lib/platform/format';
import { Section } from '@/components/ui/section';
import { getDb } from '@/lib/platform/db';
import { requireSessionUser } from '@/lib/accounts';
import { isStripeConfigured } from '@/lib/billing';
import { getKeyUsageForUser, listKeysForUser } from '@/lib/keys';
import { isLive, listSubscriptionsForUser } from '@/lib/subscriptions';
import { openBillingPortalAction } from './actions';
import { accountPaths } from '@/lib/site/paths';

// The buyer's dashboard: their subscriptions and keys (docs/api.md §5).

export const metadata: Metadata = { title: 'Your account' };
export const dynamic = 'force-dynamic';

export default async function AccountPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireSessionUser('/account');
  const params = await searchParams;
  const db = await getDb();
  const [subs, keys, usage] = await Promise.all([listSubscriptionsForUser(db, user.id), listKeysForUser(db, user.id), getKeyUsageForUser(db, user.id)]);
  const live = subs.filter((s) => isLive(s.status));
  const past = subs.filter((s) => !isLive(s.status));

  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Your account</h1>
          <p className="mt-1 text-sm text-slate-700">
            Signed in as {user.email} ·{' '}
            <Link href="/account/settings" className="font-medium text-brand-700 underline">
              Account settings
            </Link>
          </p>
        </div>
        {isStripeConfigured() ? (
          <form action={openBillingPortalAction}>
            <SubmitButton variant="secondary" pendingLabel="Opening billing…">
              Billing and invoices
            </SubmitButton>
          </form>
        ) : (
          <p className="rounded-md bg-amber-100 px-3 py-1.5 text-sm font-medium text-amber-950">Test mode: no payments on this server</p>
        )}
      </div>

      <div className="mt-6">
        <FlashMessage message={accountFlash.read(params.flash)} />
      </div>

      <Section id="subs-heading" title="Subscriptions" size="lg" className="mt-2">
        {live.length === 0 ? (
          <p className="mt-3 text-sm text-slate-700">
            You have no active subscriptions.{' '}
            <Link href="/knowledge-bases" className="font-medium text-brand-700 underline">
              Browse knowledge bases
            </Link>
          </p>
        ) : (
          <ul className="mt-3 grid gap-4 md:grid-cols-2">
            {live.map((s) => (
              <li key={s.id} className="rounded-lg border border-slate-200 bg-white p-5" data-testid="subscription-card">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <h3 className="font-semibold text-slate-900">
                    <Link href={accountPaths.subscription(s.id)} className="hover:underline">
                      {s.kbTitle}
                    </Link>
                  </h3>
                  <SubscriptionBadges subscription={s} />
                </div>
                <p className="mt-1 text-sm text-slate-700">
                  {describePlan(s.plan)} · period {formatDate(s.currentPeriodStart)} – {formatDate(s.currentPeriodEnd)}
                </p>
                <div className="mt-4">
                  <UsageMeter {...s.usage} label={`Queries used for ${s.kbTitle}`} />
                </div>
                <Link href={accountPaths.subscription(s.id)} className="mt-4 inline-block text-sm font-medium text-brand-700 underline">
                  Usage, plan and keys<span className="sr-only"> for {s.kbTitle}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {past.length > 0 ? (
          <details className="mt-4 text-sm">
            <summary className="cursor-pointer font-medium text-slate-800">Ended subscriptions ({past.length})</summary>
            <ul className="mt-2 space-y-1">
              {past.map((s) => (
                <li key={s.id}>
                  <Link href={accountPaths.subscription(s.id)} className="text-brand-700 underline">
                    {s.kbTitle}
                  </Link>{' '}
                  — {s.plan.name}, {s.status} {s.endedAt ? formatDate(s.endedAt) : ''}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </Section>

      <Section
        id="keys-heading"
        title="API keys"
        size="lg"
        className="mt-10"
        action={
          <Link href="/account/keys" className="text-sm font-medium text-brand-700 underline">
            Manage keys
          </Link>
        }
      >
        <div className="mt-3">
          <KeysTable keys={keys} usage={usage} caption="Your API keys" />
        </div>
      </Section>
    </div>
  );
}
