import { and, desc, eq, isNull } from 'drizzle-orm';
import { apiKeys, knowledgeBases, plans, subscriptions, type KnowledgeBase } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import type { KeyMode } from '@/lib/keys';
import { findAccessTokenKey } from '@/lib/oauth';
import type { SubscriptionPeriodState } from '@/lib/subscriptions';

/** Everything the gateway needs about a presented key, in one query. Never leaves the server. */
export interface GatewayKeyRecord {
  keyId: string;
  keyRevokedAt: Date | null;
  keyLastUsedAt: Date | null;
  kbId: string;
  kbStatus: KnowledgeBase['status'];
  subscription: SubscriptionPeriodState & { userId: string; planId: string; mode: KeyMode };
  plan: { id: string; queriesPerPeriod: number; requestsPerMinute: number };
}

export async function findKeyByHash(db: Executor, keyHash: string): Promise<GatewayKeyRecord | null> {
  const [row] = await db
    .select({
      keyId: apiKeys.id,
      keyRevokedAt: apiKeys.revokedAt,
      keyLastUsedAt: apiKeys.lastUsedAt,
      kbId: apiKeys.kbId,
      kbStatus: knowledgeBases.status,
      subscriptionId: subscriptions.id,
      userId: subscriptions.userId,
      planId: subscriptions.planId,
      mode: subscriptions.mode,
      status: subscriptions.status,
      periodAnchorAt: subscriptions.periodAnchorAt,
      currentPeriodStart: subscriptions.currentPeriodStart,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      stripeSubscriptionId: subscriptions.stripeSubscriptionId,
      queriesPerPeriod: plans.queriesPerPeriod,
      requestsPerMinute: plans.requestsPerMinute,
    })
    .from(apiKeys)
    .innerJoin(subscriptions, eq(subscriptions.id, apiKeys.subscriptionId))
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, apiKeys.kbId))
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  if (!row) return null;
  return {
    keyId: row.keyId,
    keyRevokedAt: row.keyRevokedAt,
    keyLastUsedAt: row.keyLastUsedAt,
    kbId: row.kbId,
    kbStatus: row.kbStatus,
    subscription: {
      id: row.subscriptionId,
      kbId: row.kbId,
      userId: row.userId,
      planId: row.planId,
      mode: row.mode,
      status: row.status,
      periodAnchorAt: row.periodAnchorAt,
      currentPeriodStart: row.currentPeriodStart,
      currentPeriodEnd: row.currentPeriodEnd,
      cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      stripeSubscriptionId: row.stripeSubscriptionId,
    },
    plan: { id: row.planId, queriesPerPeriod: row.queriesPerPeriod, requestsPerMinute: row.requestsPerMinute },
  };
}

/** The key an OAuth access token acts as; null for a token that no longer works (401 invalid_token, as OAuth expects). */
export async function findKeyByAccessToken(db: Executor, accessToken: string): Promise<GatewayKeyRecord | null> {
  const grant = await findAccessTokenKey(db, accessToken);
  if (!grant) return null;
  const [key] = await db.select({ keyHash: apiKeys.keyHash }).from(apiKeys).where(eq(apiKeys.id, grant.keyId)).limit(1);
  const record = key ? await findKeyByHash(db, key.keyHash) : null;
  return record && !record.keyRevokedAt ? record : null;
}

export async function findSubscriberKeyHash(db: Executor, userId: string, kbId: string): Promise<string | null> {
  const [key] = await db
    .select({ keyHash: apiKeys.keyHash })
    .from(apiKeys)
    .innerJoin(subscriptions, eq(subscriptions.id, apiKeys.subscriptionId))
    .where(and(eq(subscriptions.userId, userId), eq(apiKeys.kbId, kbId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(subscriptions.createdAt), desc(apiKeys.createdAt))
    .limit(1);
  return key?.keyHash ?? null;
}

export async function findKnowledgeBaseIntro(db: Executor, kbId: string): Promise<{ title: string; summary: string } | null> {
  const [row] = await db
    .select({ title: knowledgeBases.title, summary: knowledgeBases.summary })
    .from(knowledgeBases)
    .where(eq(knowledgeBases.id, kbId))
    .limit(1);
  return row ?? null;
}
