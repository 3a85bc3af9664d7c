import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, auditLog, subscriptions, usageDaily, usagePeriods } from '@/db/schema';
import type { Database } from '@/db/client';
import { hashApiKey, parseApiKey } from '@/lib/keys';
import {
  applyStripePeriod,
  cancelSubscription,
  endSubscription,
  ensureCurrentPeriod,
  expireEndedSubscriptions,
  getDailyUsage,
  getSubscriptionForUser,
  issueReplacementKey,
  listSubscriptionsForUser,
  markPastDue,
  purchaseSubscription,
  resolveCurrentPeriod,
  resumeSubscription,
  upgradeSubscription,
} from '@/lib/subscriptions';
import { findKeyByHash } from '@/lib/gateway/key-lookup';
import { inTransaction } from '@/lib/platform/transactions';
import { listKeysForUser, revokeKey } from '@/lib/keys';
import { createTestDatabase } from '../support/db';
import { countActive, createCatalogFixture, createUser, subscribersCount, useQueries } from './subscriptions-fixtures';

let db: Database;
beforeAll(async () => {
  db = (await createTestDatabase()).db;
});

const at = (iso: string) => new Date(iso);

async function buy(userId: string, planId: string, now = at('2026-01-31T10:00:00.000Z')) {
  const result = await purchaseSubscription(db, { userId, planId, mode: 'test', now });
  if (!result.ok) throw new Error(`purchase failed: ${result.code}`);
  return result;
}

describe('purchaseSubscription', () => {
  it('creates the subscription, its first key, the usage row, the counter and an audit row together', async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    const now = at('2026-01-31T10:00:00.000Z');
    const result = await buy(userId, plans.starter, now);

    expect(result.subscription).toMatchObject({ userId, kbId, planId: plans.starter, status: 'active', mode: 'test' });
    expect(result.subscription.currentPeriodStart.toISOString()).toBe('2026-01-31T10:00:00.000Z');
    expect(result.subscription.currentPeriodEnd.toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(parseApiKey(result.key.plaintext)).toEqual({ ok: true, mode: 'test', displayPrefix: result.key.displayPrefix });

    const [keyRow] = await db.select().from(apiKeys).where(eq(apiKeys.id, result.key.id));
    expect(keyRow!.keyHash).toBe(hashApiKey(result.key.plaintext));
    expect(JSON.stringify(keyRow)).not.toContain(result.key.plaintext);

    const usage = await db.select().from(usagePeriods).where(eq(usagePeriods.subscriptionId, result.subscription.id));
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ used: 0, periodStart: now, periodEnd: at('2026-02-28T10:00:00.000Z') });
    expect(await subscribersCount(db, kbId)).toBe(1);

    const audit = await db.select().from(auditLog).where(eq(auditLog.targetId, result.subscription.id));
    expect(audit.map((a) => a.action)).toEqual(['subscription.purchase']);
    expect(JSON.stringify(audit)).not.toContain(result.key.plaintext);

    const record = await findKeyByHash(db, hashApiKey(result.key.plaintext));
    expect(record).toMatchObject({
      keyId: result.key.id,
      keyRevokedAt: null,
      kbId,
      kbStatus: 'published',
      subscription: { id: result.subscription.id, status: 'active', cancelAtPeriodEnd: false, stripeSubscriptionId: null },
      plan: { id: plans.starter, queriesPerPeriod: 100, requestsPerMinute: 60 },
    });
    expect(await findKeyByHash(db, hashApiKey('alm_sk_test_unknown'))).toBeNull();
  });

  it('refuses inactive plans, unpublished knowledge bases and unknown users', async () => {
    const { plans } = await createCatalogFixture(db);
    const draft = await createCatalogFixture(db, { kbStatus: 'draft' });
    const userId = await createUser(db);
    expect(await purchaseSubscription(db, { userId, planId: plans.retired, mode: 'live' })).toMatchObject({ ok: false, code: 'invalid_plan' });
    expect(await purchaseSubscription(db, { userId, planId: 'plan_missing', mode: 'live' })).toMatchObject({ ok: false, code: 'invalid_plan' });
    expect(await purchaseSubscription(db, { userId, planId: draft.plans.starter, mode: 'live' })).toMatchObject({ ok: false, code: 'invalid_plan' });
    expect(await purchaseSubscription(db, { userId: 'usr_missing', planId: plans.starter, mode: 'live' })).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('is atomic: a failure midway (the audit insert) leaves nothing behind', async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    await db.execute(sql`create or replace function fail_purchase_audit() returns trigger language plpgsql as $$
      begin
        if new.action = 'subscription.purchase' and new.actor_user_id = ${sql.raw(`'${userId}'`)} then raise exception 'injected failure'; end if;
        return new;
      end $$`);
    await db.execute(sql`create trigger fail_purchase_audit before insert on audit_log for each row execute function fail_purchase_audit()`);
    try {
      const error = await purchaseSubscription(db, { userId, planId: plans.starter, mode: 'live' }).then(
        () => null,
        (e: unknown) => e as Error & { cause?: Error },
      );
      // Drizzle wraps the driver's error; the trigger's message is its cause.
      expect(`${error?.message} ${error?.cause?.message}`).toMatch(/injected failure/);
    } finally {
      await db.execute(sql`drop trigger fail_purchase_audit on audit_log`);
    }
    expect(await db.select().from(subscriptions).where(eq(subscriptions.userId, userId))).toHaveLength(0);
    expect(await db.select().from(apiKeys).where(eq(apiKeys.userId, userId))).toHaveLength(0);
    expect(await subscribersCount(db, kbId)).toBe(0);
    // After the failure, the same purchase goes through.
    expect((await purchaseSubscription(db, { userId, planId: plans.starter, mode: 'live' })).ok).toBe(true);
    expect(await subscribersCount(db, kbId)).toBe(1);
  });

  it("joins the caller's transaction: rolled back with it", async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    await expect(
      inTransaction(db, async (tx) => {
        const result = await purchaseSubscription(tx, { userId, planId: plans.starter, mode: 'live' });
        expect(result.ok).toBe(true);
        // A conflict inside the caller's transaction is a value and leaves the transaction usable.
        expect(await purchaseSubscription(tx, { userId, planId: plans.pro, mode: 'live' })).toMatchObject({ ok: false, code: 'conflict' });
        expect(await countActive(tx, kbId)).toBe(1);
        throw new Error('caller aborts');
      }),
    ).rejects.toThrow('caller aborts');
    expect(await db.select().from(subscriptions).where(eq(subscriptions.userId, userId))).toHaveLength(0);
    expect(await subscribersCount(db, kbId)).toBe(0);
  });

  it('allows one live subscription per buyer and knowledge base', async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const other = await createCatalogFixture(db);
    const userId = await createUser(db);
    await buy(userId, plans.starter);
    expect(await purchaseSubscription(db, { userId, planId: plans.pro, mode: 'live' })).toMatchObject({ ok: false, code: 'conflict' });
    // Another knowledge base, or another buyer, is fine.
    expect((await purchaseSubscription(db, { userId, planId: other.plans.starter, mode: 'live' })).ok).toBe(true);
    expect((await purchaseSubscription(db, { userId: await createUser(db), planId: plans.starter, mode: 'live' })).ok).toBe(true);
    expect(await subscribersCount(db, kbId)).toBe(2);
  });

  it('lets exactly one of several concurrent purchases of the same knowledge base by one buyer win', async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => purchaseSubscription(db, { userId, planId: i % 2 ? plans.pro : plans.starter, mode: 'live' })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.code === 'conflict')).toHaveLength(5);
    expect(await db.select().from(apiKeys).where(eq(apiKeys.userId, userId))).toHaveLength(1);
    expect(await subscribersCount(db, kbId)).toBe(1);
    expect(await countActive(db, kbId)).toBe(1);
  });
});

describe('billing periods', () => {
  it('rolls forward from the anchor across month ends, resetting usage each period', async () => {
    const { plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    const { subscription } = await buy(userId, plans.starter, at('2026-01-31T10:00:00.000Z'));
    await useQueries(db, subscription.id, subscription.currentPeriodStart, 42);

    // One millisecond before the end: still the first period, nothing written.
    const before = await ensureCurrentPeriod(db, subscription, at('2026-02-28T09:59:59.999Z'));
    expect(before).toBe(subscription);

    // The exact end instant belongs to the next period.
    const feb = await ensureCurrentPeriod(db, subscription, at('2026-02-28T10:00:00.000Z'));
    expect(feb.currentPeriodStart.toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(feb.currentPeriodEnd.toISOString()).toBe('2026-03-31T10:00:00.000Z');
    let view = await getSubscriptionForUser(db, userId, subscription.id, at('2026-03-01T00:00:00.000Z'));
    expect(view.ok && view.subscription.usage).toEqual({ used: 0, cap: 100, remaining: 100, resetsAt: '2026-03-31T10:00:00.000Z' });

    // Skipping several months lands in the right one, idempotently.
    const [stored] = await db.select().from(subscriptions).where(eq(subscriptions.id, subscription.id));
    const may = await ensureCurrentPeriod(db, stored!, at('2026-05-15T00:00:00.000Z'));
    const again = await ensureCurrentPeriod(db, stored!, at('2026-05-15T00:00:00.000Z'));
    expect(may.currentPeriodStart.toISOString()).toBe('2026-04-30T10:00:00.000Z');
    expect(may.currentPeriodEnd.toISOString()).toBe('2026-05-31T10:00:00.000Z');
    expect(again.currentPeriodEnd.toISOString()).toBe('2026-05-31T10:00:00.000Z');
    const rows = await db.select().from(usagePeriods).where(eq(usagePeriods.subscriptionId, subscription.id)).orderBy(usagePeriods.periodStart);
    expect(rows.map((r) => [r.periodStart.toISOString(), r.used])).toEqual([
      ['2026-01-31T10:00:00.000Z', 42],
      ['2026-02-28T10:00:00.000Z', 0],
      ['2026-04-30T10:00:00.000Z', 0],
    ]);
    const [after] = await db.select().from(subscriptions).where(eq(subscriptions.id, subscription.id));
    expect(after!.currentPeriodEnd.toISOString()).toBe('2026-05-31T10:00:00.000Z');
    // A stale copy cannot move the period back.
    await ensureCurrentPeriod(db, subscription, at('2026-02-28T10:00:00.000Z'));
    const [still] = await db.select().from(subscriptions).where(eq(subscriptions.id, subscription.id));
    expect(still!.currentPeriodEnd.toISOString()).toBe('2026-05-31T10:00:00.000Z');
    view = await getSubscriptionForUser(db, userId, subscription.id, at('2026-05-20T00:00:00.000Z'));
    expect(view.ok && view.subscription.currentPeriodStart).toBe('2026-04-30T10:00:00.000Z');
  });

  it('keeps Stripe periods until invoice.paid advances them, which resets the cap', async () => {
    const { plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    const start = at('2026-03-10T00:00:00.000Z');
    const end = at('2026-04-10T00:00:00.000Z');
    const result = await purchaseSubscription(db, {
      userId,
      planId: plans.starter,
      mode: 'live',
      now: start,
      stripe: { subscriptionId: `sub_stripe_${userId}`, customerId: `cus_${userId}`, checkoutSessionId: `cs_${userId}`, periodStart: start, periodEnd: end },
    });
    if (!result.ok) throw new Error(result.code);
    await useQueries(db, result.subscription.id, start, 100);
    // Past the end without a webhook: the stored period stays (Stripe decides).
    expect(resolveCurrentPeriod(result.subscription, at('2026-04-11T00:00:00.000Z'))).toEqual({ start, end });
    expect(await ensureCurrentPeriod(db, result.subscription, at('2026-04-11T00:00:00.000Z'))).toBe(result.subscription);

    const renewed = await applyStripePeriod(db, { subscriptionId: result.subscription.id, periodStart: end, periodEnd: at('2026-05-10T00:00:00.000Z') });
    expect(renewed).toMatchObject({ ok: true, subscription: { status: 'active', currentPeriodStart: end } });
    const view = await getSubscriptionForUser(db, userId, result.subscription.id, at('2026-04-11T00:00:00.000Z'));
    expect(view.ok && view.subscription).toMatchObject({
      stripeManaged: true,
      usage: { used: 0, cap: 100, remaining: 100, resetsAt: '2026-05-10T00:00:00.000Z' },
    });
    // A replayed older period changes nothing.
    await applyStripePeriod(db, { subscriptionId: result.subscription.id, periodStart: start, periodEnd: end });
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, result.subscription.id));
    expect(row!.currentPeriodStart).toEqual(end);
  });
});

describe('changes', () => {
  it('upgrades at once and carries the period usage over', async () => {
    const { plans } = await createCatalogFixture(db);
    const other = await createCatalogFixture(db);
    const userId = await createUser(db);
    const { subscription, key } = await buy(userId, plans.starter, at('2026-02-01T00:00:00.000Z'));
    await useQueries(db, subscription.id, subscription.currentPeriodStart, 80);
    const now = at('2026-02-10T00:00:00.000Z');

    expect(await upgradeSubscription(db, { userId, subscriptionId: subscription.id, planId: other.plans.pro })).toMatchObject({
      ok: false,
      code: 'invalid_plan',
    });
    expect(await upgradeSubscription(db, { userId, subscriptionId: subscription.id, planId: plans.retired })).toMatchObject({
      ok: false,
      code: 'invalid_plan',
    });
    expect(await upgradeSubscription(db, { userId, subscriptionId: subscription.id, planId: plans.starter })).toMatchObject({ ok: false, code: 'conflict' });
    expect(await upgradeSubscription(db, { userId, subscriptionId: subscription.id, planId: plans.pro })).toMatchObject({
      ok: true,
      subscription: { planId: plans.pro },
    });

    const view = await getSubscriptionForUser(db, userId, subscription.id, now);
    expect(view.ok && view.subscription.usage).toEqual({ used: 80, cap: 500, remaining: 420, resetsAt: '2026-03-01T00:00:00.000Z' });
    expect(view.ok && view.subscription.plan.name).toBe('Professional');
    expect((await findKeyByHash(db, hashApiKey(key.plaintext)))?.plan).toEqual({ id: plans.pro, queriesPerPeriod: 500, requestsPerMinute: 120 });
  });

  it('cancels at period end: access continues, then the subscription expires and stops counting', async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    const { subscription } = await buy(userId, plans.starter, at('2026-01-15T12:00:00.000Z'));
    const cancelled = await cancelSubscription(db, { userId, subscriptionId: subscription.id, now: at('2026-01-20T00:00:00.000Z') });
    expect(cancelled).toMatchObject({ ok: true, subscription: { status: 'active', cancelAtPeriodEnd: true } });
    expect(await cancelSubscription(db, { userId, subscriptionId: subscription.id })).toMatchObject({ ok: true });
    expect(await subscribersCount(db, kbId)).toBe(1);
    if (!cancelled.ok) throw new Error();

    // Resume and cancel again before the end.
    expect(await resumeSubscription(db, { userId, subscriptionId: subscription.id, now: at('2026-02-01T00:00:00.000Z') })).toMatchObject({
      ok: true,
      subscription: { cancelAtPeriodEnd: false, cancelledAt: null },
    });
    const again = await cancelSubscription(db, { userId, subscriptionId: subscription.id, now: at('2026-02-02T00:00:00.000Z') });
    if (!again.ok) throw new Error();

    // A cancelling subscription does not roll forward; at the end it expires.
    expect((await ensureCurrentPeriod(db, again.subscription, at('2026-02-15T11:59:59.999Z'))).status).toBe('active');
    const listed = await listSubscriptionsForUser(db, userId, at('2026-02-16T00:00:00.000Z'));
    expect(listed[0]).toMatchObject({ status: 'expired', endedAt: '2026-02-15T12:00:00.000Z' });
    const ended = await ensureCurrentPeriod(db, again.subscription, at('2026-02-15T12:00:00.000Z'));
    expect(ended.status).toBe('expired');
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, subscription.id));
    expect(row).toMatchObject({ status: 'expired', endedAt: at('2026-02-15T12:00:00.000Z') });
    expect(await subscribersCount(db, kbId)).toBe(0);
    // Twice changes nothing; too late to resume; a new purchase is possible again.
    await ensureCurrentPeriod(db, again.subscription, at('2026-02-15T12:00:00.000Z'));
    expect(await subscribersCount(db, kbId)).toBe(0);
    expect(await resumeSubscription(db, { userId, subscriptionId: subscription.id })).toMatchObject({ ok: false, code: 'conflict' });
    expect((await purchaseSubscription(db, { userId, planId: plans.pro, mode: 'test' })).ok).toBe(true);
    expect(await subscribersCount(db, kbId)).toBe(1);
  });

  it('sweeps every subscription whose cancellation has come due', async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const userId = await createUser(db);
      const { subscription } = await buy(userId, plans.starter, at(`2026-01-0${i + 1}T00:00:00.000Z`));
      if (i < 2) await cancelSubscription(db, { userId, subscriptionId: subscription.id });
      ids.push(subscription.id);
    }
    expect(await subscribersCount(db, kbId)).toBe(3);
    expect(await expireEndedSubscriptions(db, at('2026-02-01T12:00:00.000Z'))).toBe(1);
    expect(await expireEndedSubscriptions(db, at('2026-02-01T12:00:00.000Z'))).toBe(0);
    expect(await expireEndedSubscriptions(db, at('2026-03-01T00:00:00.000Z'))).toBe(1);
    expect(await subscribersCount(db, kbId)).toBe(1);
    expect(await countActive(db, kbId)).toBe(1);
  });

  it('suspends a past-due subscription until a payment arrives, and ends it when Stripe deletes it', async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    const { subscription, key } = await buy(userId, plans.starter);
    expect(await markPastDue(db, subscription.id)).toMatchObject({ ok: true, subscription: { status: 'past_due' } });
    expect(await markPastDue(db, subscription.id)).toMatchObject({ ok: true });
    expect(await subscribersCount(db, kbId)).toBe(0);
    expect((await findKeyByHash(db, hashApiKey(key.plaintext)))?.subscription.status).toBe('past_due');
    // Still the buyer's one live subscription: no second purchase while past due.
    expect(await purchaseSubscription(db, { userId, planId: plans.pro, mode: 'test' })).toMatchObject({ ok: false, code: 'conflict' });

    await applyStripePeriod(db, { subscriptionId: subscription.id, periodStart: subscription.currentPeriodEnd, periodEnd: at('2026-03-31T10:00:00.000Z') });
    expect(await subscribersCount(db, kbId)).toBe(1);

    const at1 = at('2026-03-05T00:00:00.000Z');
    expect(await endSubscription(db, { subscriptionId: subscription.id, at: at1 })).toMatchObject({
      ok: true,
      subscription: { status: 'cancelled', endedAt: at1 },
    });
    expect(await endSubscription(db, { subscriptionId: subscription.id, at: at('2026-03-06T00:00:00.000Z') })).toMatchObject({
      ok: true,
      subscription: { endedAt: at1 },
    });
    expect(await subscribersCount(db, kbId)).toBe(0);
    expect(await markPastDue(db, subscription.id)).toMatchObject({ ok: false, code: 'conflict' });
    expect(await applyStripePeriod(db, { subscriptionId: subscription.id, periodStart: at1, periodEnd: at('2026-04-05T00:00:00.000Z') })).toMatchObject({
      ok: false,
      code: 'conflict',
    });
    expect(await markPastDue(db, 'sub_missing')).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('keeps subscribers_count equal to a COUNT after a long sequence of operations', async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const buyers = await Promise.all(Array.from({ length: 6 }, () => createUser(db)));
    const subs: string[] = [];
    for (const userId of buyers) subs.push((await buy(userId, plans.starter, at('2026-01-10T00:00:00.000Z'))).subscription.id);
    await markPastDue(db, subs[0]!);
    await markPastDue(db, subs[1]!);
    await applyStripePeriod(db, { subscriptionId: subs[1]!, periodStart: at('2026-02-10T00:00:00.000Z'), periodEnd: at('2026-03-10T00:00:00.000Z') });
    await cancelSubscription(db, { userId: buyers[2]!, subscriptionId: subs[2]! });
    await endSubscription(db, { subscriptionId: subs[3]!, at: at('2026-01-20T00:00:00.000Z') });
    await endSubscription(db, { subscriptionId: subs[3]!, at: at('2026-01-21T00:00:00.000Z') });
    await upgradeSubscription(db, { userId: buyers[4]!, subscriptionId: subs[4]!, planId: plans.pro });
    await expireEndedSubscriptions(db, at('2026-02-10T00:00:00.000Z'));
    await buy(buyers[3]!, plans.pro);
    await Promise.all([markPastDue(db, subs[5]!), markPastDue(db, subs[5]!), cancelSubscription(db, { userId: buyers[5]!, subscriptionId: subs[5]! })]);
    const expected = await countActive(db, kbId);
    expect(await subscribersCount(db, kbId)).toBe(expected);
    // 1 (re-activated), 3's new purchase, 4 (upgraded): 0 and 5 past due, 2 expired, 3's first ended.
    expect(expected).toBe(3);
  });
});

describe('keys', () => {
  it('issues a replacement key that works alongside the old one until it is revoked', async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    const stranger = await createUser(db);
    const { subscription, key: first } = await buy(userId, plans.starter);
    const replacement = await issueReplacementKey(db, { userId, subscriptionId: subscription.id });
    if (!replacement.ok) throw new Error(replacement.code);
    expect(replacement.key.plaintext).not.toBe(first.plaintext);
    expect((await findKeyByHash(db, hashApiKey(first.plaintext)))?.keyRevokedAt).toBeNull();
    expect((await findKeyByHash(db, hashApiKey(replacement.key.plaintext)))?.subscription.id).toBe(subscription.id);

    const keys = await listKeysForUser(db, userId);
    expect(keys.map((k) => k.id).sort()).toEqual([first.id, replacement.key.id].sort());
    expect(keys.every((k) => k.kbId === kbId && k.kbTitle?.startsWith('Fixture KB') && k.status === 'active')).toBe(true);
    expect(JSON.stringify(keys)).not.toMatch(/[0-9a-f]{64}/);

    expect(await revokeKey(db, { userId: stranger, keyId: first.id })).toMatchObject({ ok: false, code: 'not_found' });
    const revokedAt = at('2026-02-02T00:00:00.000Z');
    expect(await revokeKey(db, { userId, keyId: first.id, now: revokedAt })).toMatchObject({
      ok: true,
      key: { status: 'revoked', revokedAt: revokedAt.toISOString() },
    });
    expect(await revokeKey(db, { userId, keyId: first.id })).toMatchObject({ ok: true, key: { revokedAt: revokedAt.toISOString() } });
    expect((await findKeyByHash(db, hashApiKey(first.plaintext)))?.keyRevokedAt).toEqual(revokedAt);
    expect((await findKeyByHash(db, hashApiKey(replacement.key.plaintext)))?.keyRevokedAt).toBeNull();
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, first.id), eq(auditLog.action, 'key.revoke')));
    expect(audits).toHaveLength(1);

    // Newest first.
    await db
      .update(apiKeys)
      .set({ createdAt: at('2020-01-01T00:00:00.000Z') })
      .where(eq(apiKeys.id, first.id));
    expect((await listKeysForUser(db, userId)).map((k) => k.id)).toEqual([replacement.key.id, first.id]);

    await endSubscription(db, { subscriptionId: subscription.id, at: new Date() });
    expect(await issueReplacementKey(db, { userId, subscriptionId: subscription.id })).toMatchObject({ ok: false, code: 'conflict' });
  });

  it("answers not_found for another user's rows everywhere", async () => {
    const { plans } = await createCatalogFixture(db);
    const owner = await createUser(db);
    const stranger = await createUser(db);
    const { subscription } = await buy(owner, plans.starter);
    const id = subscription.id;
    expect(await getSubscriptionForUser(db, stranger, id)).toMatchObject({ ok: false, code: 'not_found' });
    expect(await getDailyUsage(db, stranger, id, 7)).toMatchObject({ ok: false, code: 'not_found' });
    expect(await upgradeSubscription(db, { userId: stranger, subscriptionId: id, planId: plans.pro })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await cancelSubscription(db, { userId: stranger, subscriptionId: id })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await resumeSubscription(db, { userId: stranger, subscriptionId: id })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await issueReplacementKey(db, { userId: stranger, subscriptionId: id })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await listSubscriptionsForUser(db, stranger)).toEqual([]);
    expect(await listKeysForUser(db, stranger)).toEqual([]);
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
    expect(row).toMatchObject({ planId: plans.starter, cancelAtPeriodEnd: false });
    expect((await getSubscriptionForUser(db, owner, id)).ok).toBe(true);
  });
});

describe('dashboard reads', () => {
  it('lists subscriptions with usage and zero-fills daily usage', async () => {
    const { plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    const { subscription } = await buy(userId, plans.starter, at('2026-03-01T00:00:00.000Z'));
    await useQueries(db, subscription.id, subscription.currentPeriodStart, 7);
    await db.insert(usageDaily).values([
      { subscriptionId: subscription.id, day: '2026-03-03', queries: 4, tokens: 900 },
      { subscriptionId: subscription.id, day: '2026-03-05', queries: 3, tokens: 100 },
      { subscriptionId: subscription.id, day: '2026-02-01', queries: 99, tokens: 1 },
    ]);
    const [view] = await listSubscriptionsForUser(db, userId, at('2026-03-05T18:00:00.000Z'));
    expect(view).toMatchObject({
      id: subscription.id,
      status: 'active',
      mode: 'test',
      stripeManaged: false,
      plan: { id: plans.starter, name: 'Starter', priceCents: 900, currency: 'usd', queriesPerPeriod: 100 },
      currentPeriodStart: '2026-03-01T00:00:00.000Z',
      currentPeriodEnd: '2026-04-01T00:00:00.000Z',
      usage: { used: 7, cap: 100, remaining: 93, resetsAt: '2026-04-01T00:00:00.000Z' },
    });
    const daily = await getDailyUsage(db, userId, subscription.id, 5, at('2026-03-05T18:00:00.000Z'));
    expect(daily).toEqual({
      ok: true,
      days: [
        { day: '2026-03-01', queries: 0, tokens: 0 },
        { day: '2026-03-02', queries: 0, tokens: 0 },
        { day: '2026-03-03', queries: 4, tokens: 900 },
        { day: '2026-03-04', queries: 0, tokens: 0 },
        { day: '2026-03-05', queries: 3, tokens: 100 },
      ],
    });
  });
});
