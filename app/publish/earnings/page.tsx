import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { Fragment } from 'react';
import { publishFlash } from '@/components/publish/flash';
import { FlashMessage } from '@/components/ui/flash-message';
import { publishPaths } from '@/lib/site/paths';
import { DataTable, type DataColumn } from '@/components/ui/data-table';
import { SubmitButton } from '@/components/ui/submit-button';
import { formatAmount, formatDate, plural } from '@/lib/platform/format';
import { Section } from '@/components/ui/section';
import { requireSessionUser } from '@/lib/accounts';
import { getConnectStatus, isStripeConfigured, refreshConnectStatus } from '@/lib/billing';
import { getDb } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { requirePublisherForUser } from '@/lib/publishing';
import { earningsBalance, listEarnings, type EarningSource, type EarningView } from '@/lib/subscriptions';
import { startConnectAction } from './actions';

export const metadata: Metadata = { title: 'Earnings · Publisher console' };

const SOURCE_TEXT: Record<EarningSource, string> = {
  test_purchase: 'Purchase (test mode)',
  test_renewal: 'Renewal (test mode)',
  stripe_invoice: 'Paid invoice',
};

const HISTORY_COLUMNS: DataColumn<EarningView>[] = [
  { header: 'Period', cell: (e) => `${formatDate(e.periodStart)} – ${formatDate(e.periodEnd)}`, className: 'sm:whitespace-nowrap' },
  { header: 'Listing · plan', cell: (e) => (e.planName ? `${e.kbTitle} · ${e.planName}` : e.kbTitle) },
  { header: 'Source', cell: (e) => SOURCE_TEXT[e.source] ?? e.source },
  { header: 'Gross', cell: (e) => formatAmount(e.grossCents, e.currency), numeric: true },
  { header: 'Fee', cell: (e) => formatAmount(e.feeCents, e.currency), numeric: true },
  { header: 'Net', cell: (e) => formatAmount(e.netCents, e.currency), numeric: true },
];

export default async function EarningsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireSessionUser(publishPaths.earnings);
  const db = await getDb();
  const pub = await requirePublisherForUser(db, user.id);
  if (!pub.ok) redirect(publishPaths.overview);
  const [balance, history] = await Promise.all([earningsBalance(db, pub.publisher.id), listEarnings(db, pub.publisher.id)]);
  const fee = getEnv().PLATFORM_FEE_PERCENT;
  const params = await searchParams;
  // Back from Stripe's onboarding: ask Stripe whether the account can be paid now.
  const connect = params.connect === 'return' || params.connect === 'refresh' ? await refreshConnectStatus(db, user.id) : await getConnectStatus(db, user.id);

  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Earnings</h1>
      <p className="mt-1 max-w-3xl text-sm text-slate-700">
        Each paid subscription period appears once, when it is paid. Almanac keeps {fee}% as its fee; the rest is yours.{' '}
        {isStripeConfigured()
          ? 'Payments are destination charges to your Stripe account; Stripe pays you out on its schedule.'
          : 'This server takes no payments (test mode): the ledger records what test purchases and renewals would have earned.'}
      </p>

      <div className="mt-6">
        <FlashMessage message={publishFlash.read(params.flash)} />
      </div>

      {connect.configured ? (
        <Section id="payouts-heading" title="Payouts" size="lg" className="mt-2">
          <p className="mt-2 max-w-3xl text-sm text-slate-700" data-testid="connect-status">
            {connect.onboarded
              ? 'Your Stripe account is ready: buyers’ payments go to it, minus the platform fee.'
              : connect.accountId
                ? 'Your Stripe account is not finished yet. Until it is, payments are collected by the platform and recorded here.'
                : 'Connect a Stripe account to be paid: Stripe asks for your details and bank account (Stripe Express).'}
          </p>
          {connect.onboarded ? null : (
            <form action={startConnectAction} className="mt-3">
              <SubmitButton pendingLabel="Opening Stripe…">{connect.accountId ? 'Continue Stripe onboarding' : 'Set up payouts with Stripe'}</SubmitButton>
            </form>
          )}
        </Section>
      ) : null}

      <Section id="balance-heading" title="Balance" size="lg" className="mt-6">
        {balance.length === 0 ? (
          <p className="mt-2 text-sm text-slate-700" data-testid="earnings-empty">
            No paid periods yet. When a buyer pays for one of your plans, it appears here.
          </p>
        ) : (
          <dl className="mt-3 grid gap-3 sm:grid-cols-3" data-testid="earnings-balance">
            {balance.map((b) => (
              <Fragment key={b.currency}>
                <div className="rounded-lg border border-slate-200 bg-white p-4">
                  <dt className="text-sm text-slate-700">Your share ({b.currency.toUpperCase()})</dt>
                  <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{formatAmount(b.netCents, b.currency)}</dd>
                </div>
                <div className="rounded-lg border border-slate-200 bg-white p-4">
                  <dt className="text-sm text-slate-700">Paid by buyers</dt>
                  <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{formatAmount(b.grossCents, b.currency)}</dd>
                </div>
                <div className="rounded-lg border border-slate-200 bg-white p-4">
                  <dt className="text-sm text-slate-700">Platform fee · {plural(b.periods, 'period')}</dt>
                  <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{formatAmount(b.feeCents, b.currency)}</dd>
                </div>
              </Fragment>
            ))}
          </dl>
        )}
      </Section>

      <Section id="history-heading" title="History" size="lg" className="mt-8">
        {history.length === 0 ? (
          <p className="mt-2 text-sm text-slate-700">Nothing yet.</p>
        ) : (
          <DataTable
            caption="Paid periods, newest first"
            columns={HISTORY_COLUMNS}
            rows={history}
            rowKey={(e) => e.id}
            testId="earnings-history"
            className="mt-3"
          />
        )}
      </Section>
    </div>
  );
}
