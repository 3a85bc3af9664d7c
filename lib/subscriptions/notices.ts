import { and, eq, inArray, isNull } from 'drizzle-orm';
import { knowledgeBases, plans, subscriptions, users, type Plan } from '@/db/schema';
import { siteUrl } from '@/lib/platform/base-url';
import type { Executor } from '@/lib/platform/db';
import { formatDate, formatPrice, plural } from '@/lib/platform/format';
import { sendMail } from '@/lib/platform/mail';
import { accountPaths } from '@/lib/site/paths';

/**
 * Emails to subscribers about a publisher's change that reaches them (listing withdrawn, plan terms changed), written in
 * the change's transaction so a notice exists exactly when the change committed. The publisher never learns who got one.
 */

interface Recipient {
  subscriptionId: string;
  email: string;
  kbTitle: string;
  planName: string;
  periodEnd: Date;
}

async function recipients(tx: Executor, subscriptionIds: string[]): Promise<Recipient[]> {
  if (subscriptionIds.length === 0) return [];
  return tx
    .select({
      subscriptionId: subscriptions.id,
      email: users.email,
      kbTitle: knowledgeBases.title,
      planName: plans.name,
      periodEnd: subscriptions.currentPeriodEnd,
    })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, subscriptions.kbId))
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(and(inArray(subscriptions.id, subscriptionIds), isNull(users.deletedAt)));
}

const page = (subscriptionId: string) => siteUrl(accountPaths.subscription(subscriptionId));

export async function noticeListingWithdrawn(tx: Executor, subscriptionIds: string[]): Promise<number> {
  const to = await recipients(tx, subscriptionIds);
  for (const r of to) {
    await sendMail(tx, {
      to: r.email,
      subject: `${r.kbTitle} is no longer offered — your subscription ends on ${formatDate(r.periodEnd)}`,
      text: [
        `The publisher of ${r.kbTitle} has withdrawn it from the marketplace.`,
        '',
        `Your ${r.planName} plan and its API key keep working until ${formatDate(r.periodEnd)}. The subscription then ends, and nothing more is charged.`,
        'If the publisher offers the knowledge base again before then, your subscription renews as before.',
        '',
        `Your subscription: ${page(r.subscriptionId)}`,
      ].join('\n'),
      kind: 'subscription_notice',
    });
  }
  return to.length;
}

export type PlanTerms = Pick<Plan, 'name' | 'priceCents' | 'currency' | 'queriesPerPeriod' | 'requestsPerMinute'>;

const describeTerms = (t: PlanTerms) =>
  `${t.priceCents === 0 ? 'free' : `${formatPrice(t.priceCents, t.currency)} a month`}, ${plural(t.queriesPerPeriod, 'query', 'queries')} a period, ${plural(t.requestsPerMinute, 'request')} a minute`;

export async function noticePlanTermsChanged(tx: Executor, subscriptionIds: string[], change: { before: PlanTerms; after: PlanTerms }): Promise<number> {
  const to = await recipients(tx, subscriptionIds);
  for (const r of to) {
    await sendMail(tx, {
      to: r.email,
      subject: `${r.kbTitle}: the ${change.before.name} plan changes at your renewal on ${formatDate(r.periodEnd)}`,
      text: [
        `The publisher of ${r.kbTitle} changed the terms of the ${change.before.name} plan.`,
        '',
        `Until ${formatDate(r.periodEnd)}: nothing changes (${describeTerms(change.before)}).`,
        `From your renewal on ${formatDate(r.periodEnd)}: ${change.after.name}, ${describeTerms(change.after)}.`,
        '',
        `To avoid the change, choose another plan or cancel before that date: ${page(r.subscriptionId)}`,
      ].join('\n'),
      kind: 'subscription_notice',
    });
  }
  return to.length;
}
