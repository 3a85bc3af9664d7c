import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions, usageAlerts, usagePeriods } from '@/db/schema';
import type { Database } from '@/db/client';
import { completeTestPurchase } from '@/lib/billing';
import { runDueJobs } from '@/lib/platform/jobs';
import { listOutbox } from '@/lib/platform/mail';
import {
  ALERT_WEBHOOK_QUEUE,
  deliverAlertWebhook,
  getAlertWebhook,
  noteUsage,
  reachedThresholds,
  recordUsageAlerts,
  removeAlertWebhook,
  saveAlertWebhook,
  sendTestAlertWebhook,
  type UsagePoint,
} from '@/lib/alerts';
import { defineJobHandler } from '@/lib/platform/jobs';
import { createTestDatabase } from '../support/db';
import { listenOnLoopback } from '../support/listen';
import { createCatalogFixture, createUser } from './subscriptions-fixtures';

/**
 * Usage alerts (docs/api.md §11.4): at 80% and 100% of the cap, once per threshold and period however many requests
 * cross the line at once; email to the buyer; a webhook signed like the publisher call, delivered from the durable
 * queue and retried until the receiver answers 2xx, with the same event id every time.
 */

let db: Database;
const LOOPBACK = { development: true, allowPrivate: false };

interface Received {
  body: string;
  signature: string;
}
const received: Received[] = [];
let failuresLeft = 0;
let receiver: Awaited<ReturnType<typeof listenOnLoopback>>;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  db = (await createTestDatabase()).db;
  receiver = await listenOnLoopback(
    createServer((req, res) => {
      void readBody(req).then((body) => {
        received.push({ body, signature: String(req.headers['almanac-signature'] ?? '') });
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          res.writeHead(503).end();
        } else res.writeHead(204).end();
      });
    }),
  );
  // The queue's handler with the loopback policy of this test (the server's default refuses loopback outside `next dev`).
  defineJobHandler(ALERT_WEBHOOK_QUEUE, async (payload: { eventId: string }) => deliverAlertWebhook(payload.eventId, { db, policy: LOOPBACK }));
});

afterAll(async () => {
  await receiver.close();
});

async function buyer(): Promise<{ userId: string; email: string; subscriptionId: string; point: (used: number) => UsagePoint }> {
  const fixture = await createCatalogFixture(db);
  const userId = await createUser(db);
  const bought = await completeTestPurchase(db, { userId, planId: fixture.plans.starter }, { stripeConfigured: false });
  if (!bought.ok) throw new Error(bought.code);
  const [period] = await db.select().from(usagePeriods).where(eq(usagePeriods.subscriptionId, bought.subscriptionId));
  const [sub] = await db
    .select({ email: sql<string>`(select email from users where id = ${userId})` })
    .from(subscriptions)
    .where(eq(subscriptions.id, bought.subscriptionId));
  return {
    userId,
    email: sub!.email,
    subscriptionId: bought.subscriptionId,
    point: (used) => ({ subscriptionId: bought.subscriptionId, periodStart: period!.periodStart, periodEnd: period!.periodEnd, used, cap: 100 }),
  };
}

function verifySignature(secret: string, { body, signature }: Received): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
  if (!match) return false;
  return createHmac('sha256', secret).update(`${match[1]}.${body}`).digest('hex') === match[2];
}

async function drainWebhooks(): Promise<void> {
  while ((await runDueJobs({ queues: [ALERT_WEBHOOK_QUEUE] })) > 0) {
    /* next */
  }
}

describe('usage alerts', () => {
  it.each([
    [79, 100, []],
    [80, 100, [80]],
    [99, 100, [80]],
    [100, 100, [80, 100]],
    [4, 5, [80]],
    [5, 5, [80, 100]],
    [3, 0, []],
  ])('used %i of %i reaches %j', (used, cap, expected) => {
    expect(reachedThresholds(used, cap)).toEqual(expected);
  });

  it('twenty concurrent requests over 80% record one alert and one email; 100% adds one more', async () => {
    const b = await buyer();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => recordUsageAlerts(db, b.point(80 + (i % 5)))));
    expect(results.flat().map((r) => r.threshold)).toEqual([80]);
    const at100 = await Promise.all(Array.from({ length: 10 }, () => recordUsageAlerts(db, b.point(100))));
    expect(at100.flat().map((r) => r.threshold)).toEqual([100]);
    const rows = await db.select({ threshold: usageAlerts.threshold }).from(usageAlerts).where(eq(usageAlerts.subscriptionId, b.subscriptionId));
    expect(rows.map((r) => r.threshold).sort((x, y) => x - y)).toEqual([80, 100]);
    const mails = await listOutbox(db, { to: b.email });
    expect(mails.map((m) => m.subject).sort()).toEqual(
      [expect.stringMatching(/^You have used 80% of your /), expect.stringMatching(/^You have used all queries of /)].sort(),
    );
    expect(mails.every((m) => m.kind === 'usage_alert')).toBe(true);
  });

  it('the gateway hook (noteUsage) under concurrent requests: one alert per threshold, and a new period alerts again', async () => {
    const b = await buyer();
    for (let used = 75; used <= 100; used += 1) noteUsage(db, b.point(used));
    await expect.poll(async () => (await listOutbox(db, { to: b.email })).length).toBe(2);
    expect((await db.select().from(usageAlerts).where(eq(usageAlerts.subscriptionId, b.subscriptionId))).length).toBe(2);
    const next = { ...b.point(85), periodStart: new Date(b.point(0).periodEnd) };
    await recordUsageAlerts(db, next);
    const rows = await db
      .select()
      .from(usageAlerts)
      .where(and(eq(usageAlerts.subscriptionId, b.subscriptionId), eq(usageAlerts.periodStart, next.periodStart)));
    expect(rows.map((r) => r.threshold)).toEqual([80]);
    expect((await listOutbox(db, { to: b.email })).length).toBe(3);
  });

  it('a jump from below 80% to 100% notifies both thresholds, once each', async () => {
    const b = await buyer();
    expect((await recordUsageAlerts(db, b.point(100))).map((a) => a.threshold)).toEqual([80, 100]);
    expect(await recordUsageAlerts(db, b.point(100))).toEqual([]);
    expect((await listOutbox(db, { to: b.email })).length).toBe(2);
  });
});

describe('alert webhook', () => {
  it('is delivered signed, retried after a failure with the same event id, and never sent again once delivered', async () => {
    const b = await buyer();
    const saved = await saveAlertWebhook(db, { userId: b.userId, subscriptionId: b.subscriptionId, url: `${receiver.url}/hooks/almanac` }, LOOPBACK);
    if (!saved.ok) throw new Error(saved.message);
    expect(saved.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(await getAlertWebhook(db, { userId: b.userId, subscriptionId: b.subscriptionId })).toMatchObject({ url: `${receiver.url}/hooks/almanac` });

    const before = received.length;
    failuresLeft = 1;
    const [alert] = await recordUsageAlerts(db, b.point(80));
    await drainWebhooks();
    expect(received.length).toBe(before + 1);
    // The retry waits for its backoff; make it due now.
    await db.execute(sql`update pgboss.job set start_after = now() where name = ${ALERT_WEBHOOK_QUEUE} and state = 'retry'`);
    await drainWebhooks();
    const attempts = received.slice(before);
    expect(attempts).toHaveLength(2);
    expect(attempts[0]!.body).toBe(attempts[1]!.body);
    for (const attempt of attempts) expect(verifySignature(saved.secret, attempt)).toBe(true);
    expect(verifySignature('whsec_wrong', attempts[1]!)).toBe(false);
    const body = JSON.parse(attempts[1]!.body);
    expect(body).toEqual({
      id: alert!.eventId,
      type: 'usage.threshold_reached',
      created: expect.any(Number),
      data: {
        subscription_id: b.subscriptionId,
        kb_id: expect.stringMatching(/^kb_/),
        threshold_percent: 80,
        used: 80,
        cap: 100,
        period_start: b.point(0).periodStart.toISOString(),
        period_end: b.point(0).periodEnd.toISOString(),
      },
    });
    // Another request over the line, and the queue run again: nothing more is sent.
    await recordUsageAlerts(db, b.point(85));
    await drainWebhooks();
    expect(received.length).toBe(before + 2);
  });

  it('"Send test event" posts a signed usage.test now and reports the answer', async () => {
    const b = await buyer();
    expect(await sendTestAlertWebhook(db, { userId: b.userId, subscriptionId: b.subscriptionId }, LOOPBACK)).toEqual({ ok: false, reason: 'no_webhook' });
    const saved = await saveAlertWebhook(db, { userId: b.userId, subscriptionId: b.subscriptionId, url: receiver.url }, LOOPBACK);
    if (!saved.ok) throw new Error(saved.message);
    const before = received.length;
    expect(await sendTestAlertWebhook(db, { userId: b.userId, subscriptionId: b.subscriptionId }, LOOPBACK)).toEqual({ ok: true, status: 204 });
    const got = received[before]!;
    expect(JSON.parse(got.body)).toMatchObject({ id: expect.stringMatching(/^evt_test_/), type: 'usage.test' });
    expect(verifySignature(saved.secret, got)).toBe(true);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data', 'metadata'],
    ['http://10.1.2.3/hook', 'private'],
    ['http://127.0.0.1:9/hook', 'loopback'],
    ['ftp://example.com/hook', 'https'],
    ['https://user:pw@example.com/hook', 'credentials'],
    ['not a url', 'valid URL'],
  ])('refuses %s under the production policy', async (url, reason) => {
    const b = await buyer();
    const result = await saveAlertWebhook(db, { userId: b.userId, subscriptionId: b.subscriptionId, url }, { development: false, allowPrivate: false });
    expect(result).toMatchObject({ ok: false, code: 'invalid_url', message: expect.stringContaining(reason) });
  });

  it("someone else's subscription is not found, and removing the webhook stops deliveries", async () => {
    const b = await buyer();
    const other = await createUser(db);
    expect(await saveAlertWebhook(db, { userId: other, subscriptionId: b.subscriptionId, url: receiver.url }, LOOPBACK)).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    const saved = await saveAlertWebhook(db, { userId: b.userId, subscriptionId: b.subscriptionId, url: receiver.url }, LOOPBACK);
    expect(saved.ok).toBe(true);
    expect(await removeAlertWebhook(db, { userId: b.userId, subscriptionId: b.subscriptionId })).toBe(true);
    const before = received.length;
    await recordUsageAlerts(db, b.point(90));
    await drainWebhooks();
    expect(received.length).toBe(before);
  });
});
