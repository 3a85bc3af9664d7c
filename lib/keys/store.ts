import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { apiKeys, knowledgeBases, oauthTokens, queryLog, type Subscription } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { recordAudit, type AuditActorKind } from '@/lib/platform/audit';
import { newId } from '@/lib/platform/ids';
import { ID_MAX_LENGTH, isCleanId } from '@/lib/platform/text-input';
import { Denied, deniable, type Refusal } from '@/lib/platform/transactions';
import { generateApiKey, toKeyView, type KeyMode, type KeyView } from './format';

/**
 * The key store: only the SHA-256 hash, display prefix and last four characters are stored; the whole key exists once,
 * in the `IssuedKey` handed to the one-time reveal (docs/api.md §4). The gateway looks keys up in lib/gateway/key-lookup.ts.
 */

export interface IssuedKey {
  id: string;
  plaintext: string;
  displayPrefix: string;
  last4: string;
  mode: KeyMode;
}

/** In the caller's transaction. An OAuth grant's key names its client and is used only through the client's tokens. */
export async function issueKey(
  tx: Executor,
  subscription: Pick<Subscription, 'id' | 'userId' | 'kbId' | 'mode'>,
  name: string | null = null,
  oauthClientId: string | null = null,
): Promise<IssuedKey> {
  const generated = generateApiKey(subscription.mode);
  const id = newId('key');
  await tx.insert(apiKeys).values({
    id,
    subscriptionId: subscription.id,
    userId: subscription.userId,
    kbId: subscription.kbId,
    keyHash: generated.keyHash,
    displayPrefix: generated.displayPrefix,
    last4: generated.last4,
    mode: subscription.mode,
    name,
    oauthClientId,
  });
  return { id, plaintext: generated.key, displayPrefix: generated.displayPrefix, last4: generated.last4, mode: subscription.mode };
}

export type RevokeKeyResult = { ok: true; key: KeyView } | Refusal;

async function revokeKeyAs(db: Executor, keyId: string, actor: { userId?: string; actorKind: AuditActorKind }, now: Date): Promise<RevokeKeyResult> {
  return deniable(db, async (tx) => {
    const [row] = await tx.select().from(apiKeys).where(eq(apiKeys.id, keyId)).for('update');
    if (!row || (actor.userId !== undefined && row.userId !== actor.userId)) throw new Denied('not_found', 'No such key.');
    if (row.revokedAt) return { ok: true as const, key: toKeyView(row) };
    const [updated] = await tx.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, row.id)).returning();
    await recordAudit(tx, {
      actorUserId: actor.userId ?? null,
      actorKind: actor.actorKind,
      action: 'key.revoke',
      targetType: 'api_key',
      targetId: row.id,
      metadata: { subscriptionId: row.subscriptionId, keyPrefix: row.displayPrefix },
    });
    return { ok: true as const, key: toKeyView(updated!) };
  });
}

/** Idempotent: revoking a revoked key answers ok with the original revocation time. Someone else's key is `not_found`. */
export function revokeKey(db: Executor, input: { userId: string; keyId: string; now?: Date; actorKind?: AuditActorKind }): Promise<RevokeKeyResult> {
  return revokeKeyAs(db, input.keyId, { userId: input.userId, actorKind: input.actorKind ?? 'web' }, input.now ?? new Date());
}

/** The operator CLI: no ownership check (the operator owns the installation). */
export function revokeKeyAsOperator(db: Executor, keyId: string, now: Date = new Date()): Promise<RevokeKeyResult> {
  return revokeKeyAs(db, keyId, { actorKind: 'cli' }, now);
}

/** last_used_at is written at most once a minute (§4); the request log's rows since then give the second. */
function lastUsedToTheSecond() {
  return sql<Date | null>`(case when ${apiKeys.lastUsedAt} is null then null else greatest(${apiKeys.lastUsedAt}, (
      select max(q.created_at) from ${queryLog} q
      where q.subscription_id = ${apiKeys.subscriptionId} and q.key_id = ${apiKeys.id} and q.created_at >= ${apiKeys.lastUsedAt})) end)`
    .mapWith(apiKeys.lastUsedAt)
    .as('last_used_at');
}

/** An OAuth grant that can no longer act: no valid access token and no valid unused refresh token. */
function grantLapsed(keyId: typeof apiKeys.id | string) {
  return sql<boolean>`(${apiKeys.oauthClientId} is not null and not exists (
      select 1 from ${oauthTokens} t
      where t.key_id = ${keyId} and t.expires_at > now() and (t.kind = 'access' or t.used_at is null)))`;
}

const keyViewColumns = {
  id: apiKeys.id,
  kbId: apiKeys.kbId,
  kbTitle: knowledgeBases.title,
  subscriptionId: apiKeys.subscriptionId,
  mode: apiKeys.mode,
  displayPrefix: apiKeys.displayPrefix,
  last4: apiKeys.last4,
  name: apiKeys.name,
  oauthClientId: apiKeys.oauthClientId,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: lastUsedToTheSecond(),
  createdAt: apiKeys.createdAt,
  grantLapsed: grantLapsed(apiKeys.id).as('grant_lapsed'),
};

export async function listKeysForUser(db: Executor, userId: string): Promise<KeyView[]> {
  const rows = await db
    .select(keyViewColumns)
    .from(apiKeys)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, apiKeys.kbId))
    .where(eq(apiKeys.userId, userId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map(toKeyView);
}

/** Someone else's key, or an impossible id, is simply not found, so a page cannot tell a stranger which ids exist. */
export async function getKeyForUser(db: Executor, userId: string, keyId: string): Promise<KeyView | null> {
  if (keyId.length > ID_MAX_LENGTH || !isCleanId(keyId)) return null;
  const [row] = await db
    .select(keyViewColumns)
    .from(apiKeys)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, apiKeys.kbId))
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
    .limit(1);
  return row ? toKeyView(row) : null;
}

export type RenameKeyResult = { ok: true; key: KeyView } | Refusal;

/** A revoked or expired key is `conflict` (it keeps its name); someone else's is `not_found`. `name` is already normalised. */
export function renameKey(db: Executor, input: { userId: string; keyId: string; name: string | null; actorKind?: AuditActorKind }): Promise<RenameKeyResult> {
  return deniable(db, async (tx) => {
    const [row] = await tx.select().from(apiKeys).where(eq(apiKeys.id, input.keyId)).for('update');
    if (!row || row.userId !== input.userId) throw new Denied('not_found', 'No such key.');
    if (row.revokedAt) throw new Denied('conflict', 'A revoked key cannot be renamed.');
    if (row.oauthClientId) {
      const [lapsed] = await tx
        .select({ lapsed: grantLapsed(row.id) })
        .from(apiKeys)
        .where(eq(apiKeys.id, row.id));
      if (lapsed?.lapsed) throw new Denied('conflict', 'An expired access cannot be renamed.');
    }
    if (row.name === input.name) return { ok: true as const, key: toKeyView(row) };
    const [updated] = await tx.update(apiKeys).set({ name: input.name }).where(eq(apiKeys.id, row.id)).returning();
    await recordAudit(tx, {
      actorUserId: input.userId,
      actorKind: input.actorKind ?? 'web',
      action: 'key.rename',
      targetType: 'api_key',
      targetId: row.id,
      metadata: { keyPrefix: row.displayPrefix, from: row.name, to: input.name },
    });
    return { ok: true as const, key: toKeyView(updated!) };
  });
}

export interface KeyUsage {
  /** Answers counted against the cap (200 with a citation, §3.7). */
  queries: number;
  /** Every request the gateway logged for the key, refused ones included. */
  requests: number;
}

const KEY_USAGE_DAYS = 30;

/** Narrowed to the buyer's subscriptions to walk query_log's (subscription_id, created_at) index; unlogged keys are absent. */
export async function getKeyUsageForUser(db: Executor, userId: string, now: Date = new Date(), days = KEY_USAGE_DAYS): Promise<Map<string, KeyUsage>> {
  const since = new Date(now.getTime() - days * 86_400_000);
  const ownSubscriptions = db.selectDistinct({ id: apiKeys.subscriptionId }).from(apiKeys).where(eq(apiKeys.userId, userId));
  const rows = await db
    .select({
      keyId: apiKeys.id,
      queries: sql<number>`count(*) filter (where ${queryLog.status} = 200 and not ${queryLog.abstained})`.mapWith(Number),
      requests: sql<number>`count(*)`.mapWith(Number),
    })
    .from(queryLog)
    .innerJoin(apiKeys, eq(apiKeys.id, queryLog.keyId))
    .where(and(inArray(queryLog.subscriptionId, ownSubscriptions), eq(apiKeys.userId, userId), gte(queryLog.createdAt, since)))
    .groupBy(apiKeys.id);
  return new Map(rows.map((r) => [r.keyId, { queries: r.queries, requests: r.requests }]));
}
