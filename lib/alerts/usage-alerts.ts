import { and, eq, isNull, sql } from 'drizzle-orm';
import { alertWebhooks, knowledgeBases, plans, subscriptions, usageAlerts, users } from '@/db/schema';
import type { Database, Executor } from '@/lib/platform/db';
import { siteUrl } from '@/lib/platform/base-url';
import { randomBase62 } from '@/lib/platform/ids';
import { enqueueJob } from '@/lib/platform/jobs';
import { log } from '@/lib/platform/log';
import { sendMail } from '@/lib/platform/mail';
import { processSingleton } from '@/lib/platform/singleton';
import { inTransaction } from '@/lib/platform/transactions';
import { accountPaths } from '@/lib/site/paths';

/**
 * Usage alerts (docs/api.md §11.4): at 80% and 100% of a period's cap the buyer gets an email and, if set, a signed
 * webhook, once per threshold and period. "Once" is the primary key of `usage_alerts`: the transaction whose INSERT
 * creates the row also writes the email and enqueues the webhook, so concurrent requests, instances and retries end
 * with one alert. A per-process memory of handled thresholds keeps the database off the gateway's later requests.
 */

const ALERT_THRESHOLDS = [80, 100] as const;
export type AlertThreshold = (typeof ALERT_THRESHOLDS)[number];
export const ALERT_WEBHOOK_QUEUE = 'alert-webhook';
const WEBHOOK_MAX_ATTEMPTS = 10;

export interface UsagePoint {
  subscriptionId: string;
  periodStart: Date;
  periodEnd: Date;
  used: number;
  cap: number;
}

export function reachedThresholds(used: number, cap: number): AlertThreshold[] {
  if (!(cap > 0)) return [];
  return ALERT_THRESHOLDS.filter((t) => used * 100 >= cap * t);
}

const MAX_REMEMBERED = 50_000;

/** The gateway's hook, after a counted request: cheap below 80%, and never waits for the database. */
export function noteUsage(db: Database, point: UsagePoint): void {
  if (point.used * 100 < point.cap * ALERT_THRESHOLDS[0] || !(point.cap > 0)) return;
  const reached = reachedThresholds(point.used, point.cap);
  const key = `${point.subscriptionId}|${point.periodStart.getTime()}|${reached[reached.length - 1]}`;
  const handled = processSingleton('usage-alerts-handled', () => new Set<string>());
  if (handled.has(key)) return;
  if (handled.size >= MAX_REMEMBERED) handled.clear();
  handled.add(key);
  void recordUsageAlerts(db, point).catch((err: unknown) => {
    // Forget it, so the next request over the line tries again.
    handled.delete(key);
    log.warn({ err, subscriptionId: point.subscriptionId }, 'usage alert not recorded');
  });
}

export interface RecordedAlert {
  eventId: string;
  threshold: AlertThreshold;
}

/** A jump from below 80% to 100% records both, so each threshold is told exactly once whatever the commit order. */
export function recordUsageAlerts(db: Executor, point: UsagePoint): Promise<RecordedAlert[]> {
  const reached = reachedThresholds(point.used, point.cap);
  if (reached.length === 0) return Promise.resolve([]);
  return inTransaction(db, async (tx) => {
    const created: RecordedAlert[] = [];
    for (const threshold of reached) {
      const eventId = `evt_${randomBase62(24)}`;
      const inserted = await tx
        .insert(usageAlerts)
        .values({ subscriptionId: point.subscriptionId, periodStart: point.periodStart, threshold, eventId, used: point.used, cap: point.cap })
        .onConflictDoNothing()
        .returning({ eventId: usageAlerts.eventId });
      if (inserted[0]) created.push({ eventId: inserted[0].eventId, threshold });
    }
    if (created.length === 0) return [];
    const [details] = await tx
      .select({ email: users.email, deletedAt: users.deletedAt, kbTitle: knowledgeBases.title, planName: plans.name, webhook: alertWebhooks.subscriptionId })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .innerJoin(knowledgeBases, eq(knowledgeBases.id, subscriptions.kbId))
      .innerJoin(plans, eq(plans.id, subscriptions.planId))
      .leftJoin(alertWebhooks, eq(alertWebhooks.subscriptionId, subscriptions.id))
      .where(eq(subscriptions.id, point.subscriptionId))
      .limit(1);
    if (!details || details.deletedAt) return created;
    for (const alert of created) {
      await sendMail(tx, {
        to: details.email,
        subject: alertSubject(alert.threshold, details.kbTitle),
        text: alertText({ ...point, threshold: alert.threshold, kbTitle: details.kbTitle, planName: details.planName }),
        kind: 'usage_alert',
      });
      if (details.webhook) {
        await enqueueJob(tx, {
          queue: ALERT_WEBHOOK_QUEUE,
          payload: { eventId: alert.eventId },
          dedupeKey: `alert-webhook:${alert.eventId}`,
          maxAttempts: WEBHOOK_MAX_ATTEMPTS,
        });
      }
    }
    return created;
  });
}

function alertSubject(threshold: AlertThreshold, kbTitle: string): string {
  return threshold >= 100 ? `You have used all queries of ${kbTitle} this period` : `You have used ${threshold}% of your ${kbTitle} queries`;
}

function alertText(input: UsagePoint & { threshold: AlertThreshold; kbTitle: string; planName: string }): string {
  const page = siteUrl(accountPaths.subscription(input.subscriptionId));
  const resets = input.periodEnd.toISOString().replace('T', ' ').slice(0, 16);
  return [
    `Your subscription to ${input.kbTitle} (${input.planName} plan) has used ${input.used} of its ${input.cap} queries this period (${Math.floor((input.used / input.cap) * 100)}%).`,
    '',
    input.threshold >= 100
      ? `Further queries are refused with 429 query_cap_exceeded until the period resets on ${resets} UTC.`
      : `At ${input.cap} queries, further queries are refused until the period resets on ${resets} UTC.`,
    '',
    `Upgrade or see your usage: ${page}`,
  ].join('\n');
}

/** What the webhook's body says about an alert (lib/alerts/webhooks.ts signs and sends it). */
export interface AlertEvent {
  eventId: string;
  threshold: number;
  used: number;
  cap: number;
  createdAt: Date;
  subscriptionId: string;
  kbId: string;
  periodStart: Date;
  periodEnd: Date | null;
}

export async function findAlertEvent(db: Executor, eventId: string): Promise<AlertEvent | null> {
  const [row] = await db
    .select({
      eventId: usageAlerts.eventId,
      threshold: usageAlerts.threshold,
      used: usageAlerts.used,
      cap: usageAlerts.cap,
      createdAt: usageAlerts.createdAt,
      subscriptionId: usageAlerts.subscriptionId,
      kbId: subscriptions.kbId,
      periodStart: usageAlerts.periodStart,
      periodEnd:
        sql<Date | null>`(select period_end from usage_periods p where p.subscription_id = ${usageAlerts.subscriptionId} and p.period_start = ${usageAlerts.periodStart})`.mapWith(
          (v: unknown) => (v ? new Date(v as string) : null),
        ),
    })
    .from(usageAlerts)
    .innerJoin(subscriptions, eq(subscriptions.id, usageAlerts.subscriptionId))
    .where(eq(usageAlerts.eventId, eventId))
    .limit(1);
  return row ?? null;
}

export async function listUsageAlerts(db: Executor, subscriptionId: string, periodStart: Date): Promise<{ threshold: number; createdAt: Date }[]> {
  return db
    .select({ threshold: usageAlerts.threshold, createdAt: usageAlerts.createdAt })
    .from(usageAlerts)
    .where(and(eq(usageAlerts.subscriptionId, subscriptionId), eq(usageAlerts.periodStart, periodStart)))
    .orderBy(usageAlerts.threshold);
}

export async function findOwnedSubscription(db: Executor, userId: string, subscriptionId: string): Promise<{ id: string; kbId: string } | null> {
  const [row] = await db
    .select({ id: subscriptions.id, kbId: subscriptions.kbId })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.userId, userId), isNull(users.deletedAt)))
    .limit(1);
  return row ?? null;
}
