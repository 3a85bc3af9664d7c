import { eq } from 'drizzle-orm';
import { apiKeys } from '@/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, queryLog, subscriptions } from '@/db/schema';
import type { Database } from '@/db/client';
import { changePlan, downgradeAtRenewal, previewPlanChange, resumeRenewal, cancelAtPeriodEnd, startCheckout } from '@/lib/billing';
import { createStripeClient } from '@/lib/billing/stripe';
import { getKeyForUser, getKeyUsageForUser, listKeysForUser, normalizeKeyName, renameKey, revokeKey } from '@/lib/keys';
import { applyStripePeriod, ensureCurrentPeriod, getSubscriptionForUser, issueReplacementKey, purchaseSubscription } from '@/lib/subscriptions';
import { createTestDatabase } from '../support/db';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe';
import { createCatalogFixture, createUser, useQueries } from './subscriptions-fixtures';

/** Key names, per-key usage, the upgrade preview, downgrades at renewal and resume. */

let db: Database;
let fake: FakeStripe;
beforeAll(async () => {
  db = (await createTestDatabase()).db;
  fake = await startFakeStripe();
});
afterAll(() => fake.close());

const at = (iso: string) => new Date(iso);
const row = async (id: string) => (await db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;

async function buy(userId: string, planId: string, now = at('2026-01-31T10:00:00.000Z')) {
  const result = await purchaseSubscription(db, { userId, planId, mode: 'test', now });
  if (!result.ok) throw new Error(`purchase failed: ${result.code}`);
  return result;
}

describe('key names', () => {
  it('a replacement key is named at creation, renamed by its owner only, unnamed with an empty name; each rename audited', async () => {
    const { plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    const stranger = await createUser(db);
    const { subscription, key: first } = await buy(userId, plans.starter);
    const replacement = await issueReplacementKey(db, { userId, subscriptionId: subscription.id, name: 'production server' });
    if (!replacement.ok) throw new Error(replacement.code);

    expect((await listKeysForUser(db, userId)).map((k) => [k.id, k.name])).toEqual([
      [replacement.key.id, 'production server'],
      [first.id, null],
    ]);
    expect(await renameKey(db, { userId: stranger, keyId: first.id, name: 'mine now' })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await renameKey(db, { userId, keyId: first.id, name: 'staging' })).toMatchObject({ ok: true, key: { id: first.id, name: 'staging' } });
    expect(await renameKey(db, { userId, keyId: first.id, name: 'staging' })).toMatchObject({ ok: true }); // unchanged: no second audit row
    const unnamed = normalizeKeyName('   ');
    expect(unnamed).toEqual({ ok: true, name: null });
    expect(await renameKey(db, { userId, keyId: replacement.key.id, name: null })).toMatchObject({ ok: true, key: { name: null } });
    expect((await listKeysForUser(db, userId)).map((k) => k.name)).toEqual([null, 'staging']);
    const audit = await db.select().from(auditLog).where(eq(auditLog.action, 'key.rename'));
    expect(audit.filter((a) => a.actorUserId === userId).map((a) => [a.targetId, (a.metadata as { to: string | null }).to])).toEqual(
      expect.arrayContaining([
        [first.id, 'staging'],
        [replacement.key.id, null],
      ]),
    );
    expect(audit.filter((a) => a.targetId === first.id)).toHaveLength(1);
  });
});

describe('a revoked key and a key’s last use (issue 32)', () => {
  it('a revoked key keeps its name: renaming it is refused', async () => {
    const { plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    const { key } = await buy(userId, plans.starter);
    await renameKey(db, { userId, keyId: key.id, name: 'old laptop' });
    expect(await revokeKey(db, { userId, keyId: key.id })).toMatchObject({ ok: true });
    expect(await renameKey(db, { userId, keyId: key.id, name: 'new name' })).toMatchObject({ ok: false, code: 'conflict' });
    expect(await getKeyForUser(db, userId, key.id)).toMatchObject({ name: 'old laptop', status: 'revoked' });
  });

  it('last used is read to the second from the request log, not only the once-a-minute column', async () => {
    const { plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    const { subscription, key } = await buy(userId, plans.starter);
    const other = await issueReplacementKey(db, { userId, subscriptionId: subscription.id });
    if (!other.ok) throw new Error(other.code);
    expect((await getKeyForUser(db, userId, key.id))?.lastUsedAt).toBeNull();
    // The recorder wrote 12:00:00 and skipped the writes of the next minute; the log has each request.
    await db
      .update(apiKeys)
      .set({ lastUsedAt: at('2026-02-01T12:00:00.000Z') })
      .where(eq(apiKeys.id, key.id));
    const logRow = (keyId: string, iso: string) => ({
      requestId: `req_${iso}${keyId}`,
      kbId: subscription.kbId,
      subscriptionId: subscription.id,
      keyId,
      status: 200,
      createdAt: at(iso),
    });
    await db.insert(queryLog).values([
      logRow(key.id, '2026-02-01T11:59:00.000Z'),
      logRow(key.id, '2026-02-01T12:00:00.000Z'),
      logRow(key.id, '2026-02-01T12:00:47.000Z'),
      logRow(other.key.id, '2026-02-01T12:00:55.000Z'), // the subscription's other key
    ]);
    expect((await getKeyForUser(db, userId, key.id))?.lastUsedAt).toBe('2026-02-01T12:00:47.000Z');
    expect((await listKeysForUser(db, userId)).find((k) => k.id === key.id)?.lastUsedAt).toBe('2026-02-01T12:00:47.000Z');
  });
});

describe('one key by id (the rename page)', () => {
  it('finds the owner’s key, revoked ones too, and answers a stranger’s, an unknown and a malformed id alike: null', async () => {
    const { plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    const stranger = await createUser(db);
    const { subscription, key } = await buy(userId, plans.starter);
    await renameKey(db, { userId, keyId: key.id, name: 'laptop' });
    const found = await getKeyForUser(db, userId, key.id);
    expect(found).toEqual((await listKeysForUser(db, userId)).find((k) => k.id === key.id));
    expect(found).toMatchObject({ id: key.id, name: 'laptop', subscriptionId: subscription.id, kbTitle: expect.any(String), status: 'active' });
    for (const [owner, id] of [
      [stranger, key.id],
      [userId, 'key_doesnotexist'],
      [userId, `${key.id}\u0000`],
      [userId, 'k'.repeat(500)],
    ] as const) {
      expect(await getKeyForUser(db, owner, id)).toBeNull();
    }
  });
});

describe('usage per key (last 30 days, from query_log)', () => {
  it('counts answered queries and all requests of each of the buyer’s keys, nothing older than 30 days, nobody else’s', async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    const stranger = await createUser(db);
    const mine = await buy(userId, plans.starter);
    const second = await issueReplacementKey(db, { userId, subscriptionId: mine.subscription.id });
    if (!second.ok) throw new Error(second.code);
    const theirs = await buy(stranger, plans.starter);
    const now = at('2026-03-01T12:00:00.000Z');
    const log = (keyId: string, subscriptionId: string, status: number, daysAgo: number, abstained = false) => ({
      requestId: `req_${Math.random().toString(36).slice(2)}`,
      kbId,
      subscriptionId,
      keyId,
      status,
      abstained,
      createdAt: new Date(now.getTime() - daysAgo * 86_400_000),
    });
    const sub = mine.subscription.id;
    await db.insert(queryLog).values([
      log(mine.key.id, sub, 200, 1),
      log(mine.key.id, sub, 200, 29),
      log(mine.key.id, sub, 200, 2, true), // abstained: a request, not a counted query
      log(mine.key.id, sub, 429, 3),
      log(mine.key.id, sub, 200, 31), // too old
      log(second.key.id, sub, 200, 0),
      log(theirs.key.id, theirs.subscription.id, 200, 1),
    ]);
    const usage = await getKeyUsageForUser(db, userId, now);
    expect(Object.fromEntries(usage)).toEqual({
      [mine.key.id]: { queries: 2, requests: 4 },
      [second.key.id]: { queries: 1, requests: 1 },
    });
    expect([...(await getKeyUsageForUser(db, stranger, now)).keys()]).toEqual([theirs.key.id]);
  });
});

describe('plan changes', () => {
  it('a downgrade waits for the renewal: the cap stays, the smaller plan applies when the period rolls over (audited)', async () => {
    const { plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    const stranger = await createUser(db);
    const { subscription } = await buy(userId, plans.pro);
    await useQueries(db, subscription.id, subscription.currentPeriodStart, 150);
    const input = { userId, subscriptionId: subscription.id };

    expect(await downgradeAtRenewal(db, { ...input, userId: stranger, planId: plans.starter }, null)).toMatchObject({ ok: false, code: 'not_found' });
    expect(await downgradeAtRenewal(db, { ...input, planId: plans.retired }, null)).toMatchObject({ ok: false, code: 'invalid_plan' });
    const preview = await previewPlanChange(db, { ...input, planId: plans.starter }, null, at('2026-02-01T00:00:00.000Z'));
    expect(preview).toMatchObject({
      ok: true,
      preview: { direction: 'downgrade', effectiveAt: '2026-02-28T10:00:00.000Z', charge: { kind: 'none' }, plan: { name: 'Starter', queriesPerPeriod: 100 } },
    });

    expect(await downgradeAtRenewal(db, { ...input, planId: plans.starter }, null)).toMatchObject({
      ok: true,
      subscription: { planId: plans.pro, pendingPlanId: plans.starter },
    });
    const view = await getSubscriptionForUser(db, userId, subscription.id, at('2026-02-10T00:00:00.000Z'));
    expect(view).toMatchObject({ ok: true, subscription: { pendingPlanId: plans.starter, usage: { used: 150, cap: 500 } } });

    // The current plan again withdraws it; scheduling once more puts it back.
    expect(await downgradeAtRenewal(db, { ...input, planId: plans.pro }, null)).toMatchObject({ ok: true, subscription: { pendingPlanId: null } });
    expect((await downgradeAtRenewal(db, { ...input, planId: plans.starter }, null)).ok).toBe(true);

    const state = await row(subscription.id);
    const rolled = await ensureCurrentPeriod(db, state, at('2026-03-01T00:00:00.000Z'));
    expect(rolled.currentPeriodStart.toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(await row(subscription.id)).toMatchObject({ planId: plans.starter, pendingPlanId: null });
    const after = await getSubscriptionForUser(db, userId, subscription.id, at('2026-03-01T00:00:00.000Z'));
    expect(after).toMatchObject({ ok: true, subscription: { plan: { id: plans.starter }, usage: { used: 0, cap: 100 } } });
    const audit = await db.select().from(auditLog).where(eq(auditLog.targetId, subscription.id));
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['subscription.schedule_downgrade', 'subscription.downgrade_applied']));
  });

  it('an upgrade supersedes a scheduled downgrade; nothing changes plan on a cancelled subscription, which can be resumed before its end', async () => {
    const { plans } = await createCatalogFixture(db);
    const userId = await createUser(db);
    const { subscription } = await buy(userId, plans.pro, new Date());
    const input = { userId, subscriptionId: subscription.id };
    expect((await downgradeAtRenewal(db, { ...input, planId: plans.starter }, null)).ok).toBe(true);
    // Back down to Starter now and up again: the upgrade clears the pending downgrade.
    await db.update(subscriptions).set({ planId: plans.starter, pendingPlanId: plans.starter }).where(eq(subscriptions.id, subscription.id));
    expect(await changePlan(db, { ...input, planId: plans.pro }, null)).toMatchObject({ ok: true, subscription: { planId: plans.pro, pendingPlanId: null } });

    expect((await cancelAtPeriodEnd(db, input, null)).ok).toBe(true);
    expect(await downgradeAtRenewal(db, { ...input, planId: plans.starter }, null)).toMatchObject({ ok: false, code: 'conflict' });
    expect(await previewPlanChange(db, { ...input, planId: plans.starter }, null)).toMatchObject({ ok: false, code: 'conflict' });
    expect(await resumeRenewal(db, input, null)).toMatchObject({ ok: true, subscription: { cancelAtPeriodEnd: false, cancelledAt: null } });
    expect((await previewPlanChange(db, { ...input, planId: plans.starter }, null)).ok).toBe(true);
  });

  it('with Stripe: the upgrade preview is Stripe’s proration; a downgrade moves Stripe’s price without proration and applies with the next paid period', async () => {
    const fx = await createCatalogFixture(db);
    const userId = await createUser(db);
    const stripe = createStripeClient(fake.secretKey, fake.baseUrl);
    const started = await startCheckout(db, { userId, email: `${userId}@example.com`, planId: fx.plans.starter }, stripe);
    if (!started.ok || started.kind !== 'stripe') throw new Error('checkout did not start');
    const start = Math.floor(Date.now() / 1000) - 10 * 86_400;
    const { session, subscription: stripeSub } = fake.completeCheckout(started.url.split('/').at(-1)!, { start, end: start + 30 * 86_400 });
    const periodStart = new Date(start * 1000);
    const periodEnd = new Date((start + 30 * 86_400) * 1000);
    const bought = await purchaseSubscription(db, {
      userId,
      planId: fx.plans.starter,
      mode: 'live',
      stripe: { subscriptionId: stripeSub.id, customerId: String(session.customer), checkoutSessionId: session.id, periodStart, periodEnd },
    });
    if (!bought.ok) throw new Error(bought.code);
    const input = { userId, subscriptionId: bought.subscription.id };

    const now = new Date((start + 15 * 86_400) * 1000); // half way through
    const preview = await previewPlanChange(db, { ...input, planId: fx.plans.pro }, stripe, now);
    expect(preview).toMatchObject({ ok: true, preview: { direction: 'upgrade', charge: { kind: 'stripe', amountCents: 1000, currency: 'usd' } } });
    const asked = fake.requests.filter((r) => r.path === '/v1/invoices/create_preview').at(-1)!;
    expect(asked.params).toMatchObject({
      subscription: stripeSub.id,
      'subscription_details[proration_behavior]': 'always_invoice',
      'subscription_details[items][0][price_data][unit_amount]': '2900',
    });
    expect((await row(bought.subscription.id)).planId).toBe(fx.plans.starter); // a preview changes nothing

    expect((await changePlan(db, { ...input, planId: fx.plans.pro }, stripe)).ok).toBe(true);
    expect((await downgradeAtRenewal(db, { ...input, planId: fx.plans.starter }, stripe)).ok).toBe(true);
    const update = fake.requests.filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${stripeSub.id}`).at(-1)!;
    expect(update.params).toMatchObject({ proration_behavior: 'none', 'metadata[planId]': fx.plans.starter, 'items[0][price_data][unit_amount]': '900' });
    expect(await row(bought.subscription.id)).toMatchObject({ planId: fx.plans.pro, pendingPlanId: fx.plans.starter });

    // invoice.paid for the same period changes nothing; for the next one the downgrade applies.
    expect((await applyStripePeriod(db, { subscriptionId: bought.subscription.id, periodStart, periodEnd })).ok).toBe(true);
    expect((await row(bought.subscription.id)).planId).toBe(fx.plans.pro);
    const next = { periodStart: periodEnd, periodEnd: new Date(periodEnd.getTime() + 30 * 86_400_000) };
    expect((await applyStripePeriod(db, { subscriptionId: bought.subscription.id, ...next })).ok).toBe(true);
    expect(await row(bought.subscription.id)).toMatchObject({ planId: fx.plans.starter, pendingPlanId: null });
  });
});
