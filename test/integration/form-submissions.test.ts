import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, keyHandoffs, plans, subscriptions } from '@/db/schema';
import type { DatabaseHandle } from '@/db/client';
import { completeTestPurchase, issueReplacementKeyForReveal } from '@/lib/billing';
import { newFormToken, onceForForm, purgeOldFormSubmissions } from '@/lib/platform/form-submissions';
import { createTestDatabase } from '../support/db';
import { buyKey, createKnowledgeBase, createPublisher } from '../support/gateway-fixtures';
import { rememberSecret } from '../support/log-scan';

/** A state-changing form submitted twice has one effect (docs/api.md §7.4), even when both arrive at once. */
let handle: DatabaseHandle;
let kbId: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  kbId = await createKnowledgeBase(handle.db, await createPublisher(handle.db));
});

describe('one effect per form submission', () => {
  it('"Create replacement key" clicked twice at once: one new key, both clicks go to its one reveal', async () => {
    const bought = await buyKey(handle.db, kbId, { cap: 10 });
    rememberSecret(bought.key);
    const token = newFormToken();
    const reveal = (id: string) => `/account/keys/reveal?handoff=${id}`;
    const submit = () =>
      onceForForm(handle.db, { userId: bought.userId, token }, (tx) => issueReplacementKeyForReveal(tx, { userId: bought.userId, subscriptionId: bought.subscriptionId }), (r) => (r.ok ? reveal(r.handoffId) : null));
    const [first, second] = await Promise.all([submit(), submit()]);
    const destinations = [first, second].map((o) => (o.repeated ? o.destination : o.result.ok ? reveal(o.result.handoffId) : 'refused'));
    expect(destinations[0]).toBe(destinations[1]);
    expect([first.repeated, second.repeated].sort()).toEqual([false, true]);
    const keys = await handle.db.select().from(apiKeys).where(eq(apiKeys.subscriptionId, bought.subscriptionId));
    expect(keys).toHaveLength(2); // the purchase's key and ONE replacement
    expect(await handle.db.select().from(keyHandoffs).where(eq(keyHandoffs.subscriptionId, bought.subscriptionId))).toHaveLength(1);
    // A later submission of the same rendered form is sent to the same place; a fresh form makes another key.
    const again = await submit();
    expect(again).toEqual({ repeated: true, destination: destinations[0] });
    const fresh = await onceForForm(handle.db, { userId: bought.userId, token: newFormToken() }, (tx) => issueReplacementKeyForReveal(tx, { userId: bought.userId, subscriptionId: bought.subscriptionId }), () => 'x');
    expect(fresh.repeated).toBe(false);
    expect(await handle.db.select().from(apiKeys).where(eq(apiKeys.subscriptionId, bought.subscriptionId))).toHaveLength(3);
  });

  it('"Complete test purchase" clicked twice at once: one subscription, both clicks go to the one key reveal', async () => {
    const buyer = await buyKey(handle.db, kbId, { cap: 10 });
    rememberSecret(buyer.key);
    const otherKb = await createKnowledgeBase(handle.db, await createPublisher(handle.db));
    const planId = `plan_${otherKb}`;
    await handle.db.insert(plans).values({ id: planId, kbId: otherKb, name: 'Starter', priceCents: 0, currency: 'usd', queriesPerPeriod: 10, requestsPerMinute: 60 });
    const token = newFormToken();
    const submit = () =>
      onceForForm(handle.db, { userId: buyer.userId, token }, (tx) => completeTestPurchase(tx, { userId: buyer.userId, planId }, { stripeConfigured: false }), (r) => (r.ok ? `/checkout/success?handoff=${r.handoffId}` : null));
    const [first, second] = await Promise.all([submit(), submit()]);
    const destinations = [first, second].map((o) => (o.repeated ? o.destination : o.result.ok ? `/checkout/success?handoff=${o.result.handoffId}` : o.result.code));
    expect(destinations[0]).toMatch(/^\/checkout\/success\?handoff=/);
    expect(destinations[1]).toBe(destinations[0]);
    const subs = await handle.db.select().from(subscriptions).where(eq(subscriptions.kbId, otherKb));
    expect(subs).toHaveLength(1);
  });

  it('a missing or malformed token runs the form as before; old tokens are purged after a day', async () => {
    const ran: number[] = [];
    const work = async () => (ran.push(1), { ok: true as const });
    for (const token of [null, '', 'short', 'has spaces in it ok?']) {
      const result = await onceForForm(handle.db, { userId: 'usr_none', token }, work, () => null);
      expect(result.repeated).toBe(false);
    }
    expect(ran).toHaveLength(4);
    expect(await purgeOldFormSubmissions(handle.db, new Date(Date.now() + 2 * 86_400_000))).toBeGreaterThanOrEqual(2);
  });
});
