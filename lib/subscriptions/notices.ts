import { and, eq, inArray, isNull } from 'drizzle-orm';
import { knowledgeBases, plans, subscriptions, users, type Plan } from '@/db/schema';
import { siteUrl } from '@/lib/platform/base-url';
import type { Executor } from '@/lib/platform/db';
import { sendMail } from '@/lib/platform/mail';

/**
 * Emails to subscribers about changes a publisher made that reach their subscription: the listing withdrawn (no
 * renewal), or a plan's terms changed (the replacement applies at their next renewal). Written in the transaction of
 * the change, so a notice exists exactly when the change committed (lib/platform/mail.ts). The publisher is never
 * told who received one.
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
    .select({ subscriptionId: subscriptions.id, email: users.email, kbTitle: knowledgeBases.title, planName: plans.name, periodEnd: subscriptions.currentPeriodEnd })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, subscriptions.kbId))
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(and(inArray(subscriptions.id, subscriptionIds), isNull(users.deletedAt)));
}

/** "Dec 27, 2026", as the pages write dates (their periods run in UTC). */
const day = (d: Date) => new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(d);
const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const page = (subscriptionId: string) => siteUrl(`/account/subscriptions/${subscriptionId}`);

/** The listing was unpublished: each subscription it stopped from renewing. */
export async function noticeListingWithdrawn(tx: Executor, subscriptionIds: string[]): Promise<number> {
  const to = await recipients(tx, subscriptionIds);
  for (const r of to) {
    await sendMail(tx, {
      to: r.email,
      subject: `${r.kbTitle} is no longer offered — your subscription ends on ${day(r.periodEnd)}`,
      text: [
        `The publisher of ${r.kbTitle} has withdrawn it from the marketplace.`,
        '',
        `Your ${r.planName} plan and its API key keep working until ${day(r.periodEnd)}. The subscription then ends, and nothing more is charged.`,
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

const price = (t: PlanTerms) =>
  t.priceCents === 0 ? 'free' : new Intl.NumberFormat('en-US', { style: 'currency', currency: t.currency.toUpperCase() }).format(t.priceCents / 100) + ' a month';
const describeTerms = (t: PlanTerms) =>
  `${price(t)}, ${count(t.queriesPerPeriod, 'query', 'queries')} a period, ${count(t.requestsPerMinute, 'request', 'requests')} a minute`;

/** A plan's terms changed: each subscription moving to the replacement at its next renewal. */
export async function noticePlanTermsChanged(tx: Executor, subscriptionIds: string[], change: { before: PlanTerms; after: PlanTerms }): Promise<number> {
  const to = await recipients(tx, subscriptionIds);
  for (const r of to) {
    await sendMail(tx, {
      to: r.email,
      subject: `${r.kbTitle}: the ${change.before.name} plan changes at your renewal on ${day(r.periodEnd)}`,
      text: [
        `The publisher of ${r.kbTitle} changed the terms of the ${change.before.name} plan.`,
        '',
        `Until ${day(r.periodEnd)}: nothing changes (${describeTerms(change.before)}).`,
        `From your renewal on ${day(r.periodEnd)}: ${change.after.name}, ${describeTerms(change.after)}.`,
        '',
        `To avoid the change, choose another plan or cancel before that date: ${page(r.subscriptionId)}`,
      ].join('\n'),
      kind: 'subscription_notice',
    });
  }
  return to.length;
}
