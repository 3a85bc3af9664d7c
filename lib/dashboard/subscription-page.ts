import { listPlanChoices, type PlanChoice } from '@/lib/billing';
import { getKeyUsageForUser, listKeysForUser, type KeyUsage, type KeyView } from '@/lib/keys';
import type { Executor } from '@/lib/platform/db';
import type { Refusal } from '@/lib/platform/transactions';
import { getAlertWebhook, listUsageAlerts } from '@/lib/alerts';
import { canChangePlan, getDailyUsage, getSubscriptionForUser, isLive, type DailyUsage, type SubscriptionView } from '@/lib/subscriptions';

/** Everything the buyer's page of one subscription shows, read at once; the page only renders it. */
export interface SubscriptionPage {
  subscription: SubscriptionView;
  /** Still granting access or suspended until paid: the plan and key forms are offered. */
  live: boolean;
  /** The plan picker is offered (and `planChoices` filled) only when the plan may change. */
  canChangePlan: boolean;
  planChoices: PlanChoice[];
  /** The plan a scheduled downgrade or a publisher's replacement moves to at the next renewal. */
  pendingPlan: PlanChoice | undefined;
  /** The last 30 days, or null when they cannot be read. */
  dailyUsage: DailyUsage[] | null;
  keys: KeyView[];
  keyUsage: Map<string, KeyUsage>;
  alertWebhook: Awaited<ReturnType<typeof getAlertWebhook>>;
  alertsSent: Awaited<ReturnType<typeof listUsageAlerts>>;
}

const USAGE_CHART_DAYS = 30;

export async function loadSubscriptionPage(db: Executor, userId: string, subscriptionId: string): Promise<{ ok: true; page: SubscriptionPage } | Refusal> {
  const found = await getSubscriptionForUser(db, userId, subscriptionId);
  if (!found.ok) return found;
  const sub = found.subscription;
  const changeable = canChangePlan(sub);
  const [daily, keys, keyUsage, planChoices, alertWebhook, alertsSent] = await Promise.all([
    getDailyUsage(db, userId, sub.id, USAGE_CHART_DAYS),
    listKeysForUser(db, userId),
    getKeyUsageForUser(db, userId),
    changeable ? listPlanChoices(db, sub.kbId, sub.plan) : Promise.resolve([]),
    getAlertWebhook(db, { userId, subscriptionId: sub.id }),
    listUsageAlerts(db, sub.id, new Date(sub.currentPeriodStart)),
  ]);
  return {
    ok: true,
    page: {
      subscription: sub,
      live: isLive(sub.status),
      canChangePlan: changeable,
      planChoices,
      pendingPlan: sub.pendingPlanId ? planChoices.find((p) => p.id === sub.pendingPlanId) : undefined,
      dailyUsage: daily.ok ? daily.days : null,
      keys: keys.filter((k) => k.subscriptionId === sub.id),
      keyUsage,
      alertWebhook,
      alertsSent,
    },
  };
}
