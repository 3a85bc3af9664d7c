import http from 'node:http';
import https from 'node:https';
import { eq } from 'drizzle-orm';
import { alertWebhooks } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { getDb } from '@/lib/platform/db';
import { decryptSecret, encryptSecret, signPayload } from '@/lib/platform/crypto';
import { randomBase62 } from '@/lib/platform/ids';
import { defineJobHandler } from '@/lib/platform/jobs';
import { guardPolicy, pinnedLookup, parseEndpointUrl, resolveAndGuard, type GuardPolicy } from '@/lib/platform/ssrf-guard';
import { ALERT_WEBHOOK_QUEUE, findAlertEvent, findOwnedSubscription, type AlertEvent } from './usage-alerts';

/**
 * The buyer's usage-alert webhook (docs/api.md §11.4): each alert POSTed as JSON, signed like the publisher call, from
 * the durable queue with retries; the body (with its event id) is the same on every attempt, so receivers deduplicate
 * on `id`. The URL follows the SSRF rules, checked on save and again, DNS pinned, on every delivery.
 */

const DELIVERY_TIMEOUT_MS = 10_000;

export type AlertWebhookSaveResult = { ok: true; secret: string; url: string } | { ok: false; code: 'not_found' | 'invalid_url'; message: string };

/** Sets (or replaces) the subscription's webhook; the new signing secret is returned once and stored encrypted. */
export async function saveAlertWebhook(
  db: Executor,
  input: { userId: string; subscriptionId: string; url: string },
  policy: GuardPolicy = guardPolicy(),
): Promise<AlertWebhookSaveResult> {
  if (!(await findOwnedSubscription(db, input.userId, input.subscriptionId))) return { ok: false, code: 'not_found', message: 'No such subscription.' };
  const checked = await checkWebhookUrl(input.url, policy);
  if (!checked.ok) return { ok: false, code: 'invalid_url', message: checked.reason };
  const secret = `whsec_${randomBase62(32)}`;
  const values = { url: checked.url.toString(), secretCiphertext: encryptSecret(secret), updatedAt: new Date() };
  await db
    .insert(alertWebhooks)
    .values({ subscriptionId: input.subscriptionId, ...values })
    .onConflictDoUpdate({ target: alertWebhooks.subscriptionId, set: values });
  return { ok: true, secret, url: values.url };
}

async function checkWebhookUrl(raw: string, policy: GuardPolicy): Promise<{ ok: true; url: URL } | { ok: false; reason: string }> {
  const trimmed = raw.trim();
  if (trimmed.length === 0 || trimmed.length > 2000) return { ok: false, reason: 'Enter a URL of at most 2000 characters.' };
  const parsed = parseEndpointUrl(trimmed);
  if (!parsed.ok) return { ok: false, reason: `That URL cannot be used: ${parsed.reason.replace('the endpoint', 'the webhook')}.` };
  const guard = await resolveAndGuard(parsed.url, policy);
  if (!guard.ok) return { ok: false, reason: `That URL cannot be used: ${guard.reason.replace('publisher endpoints', 'webhooks')}.` };
  return { ok: true, url: parsed.url };
}

export async function removeAlertWebhook(db: Executor, input: { userId: string; subscriptionId: string }): Promise<boolean> {
  if (!(await findOwnedSubscription(db, input.userId, input.subscriptionId))) return false;
  await db.delete(alertWebhooks).where(eq(alertWebhooks.subscriptionId, input.subscriptionId));
  return true;
}

/** What the subscription page shows: the URL, never the secret. */
export async function getAlertWebhook(db: Executor, input: { userId: string; subscriptionId: string }): Promise<{ url: string; updatedAt: Date } | null> {
  if (!(await findOwnedSubscription(db, input.userId, input.subscriptionId))) return null;
  const [row] = await db
    .select({ url: alertWebhooks.url, updatedAt: alertWebhooks.updatedAt })
    .from(alertWebhooks)
    .where(eq(alertWebhooks.subscriptionId, input.subscriptionId));
  return row ?? null;
}

function alertWebhookBody(event: AlertEvent, test = false): string {
  return JSON.stringify({
    id: event.eventId,
    type: test ? 'usage.test' : 'usage.threshold_reached',
    created: Math.floor(event.createdAt.getTime() / 1000),
    data: {
      subscription_id: event.subscriptionId,
      kb_id: event.kbId,
      threshold_percent: event.threshold,
      used: event.used,
      cap: event.cap,
      period_start: event.periodStart.toISOString(),
      period_end: event.periodEnd ? event.periodEnd.toISOString() : null,
    },
  });
}

export type DeliveryResult = { ok: true; status: number } | { ok: false; reason: string };

/** `timeoutMs` bounds the whole exchange: a receiver trickling its answer a byte at a time is cut off too. */
export async function postSignedWebhook(
  urlText: string,
  secret: string,
  body: string,
  policy: GuardPolicy = guardPolicy(),
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<DeliveryResult> {
  const url = new URL(urlText);
  const guard = await resolveAndGuard(url, policy);
  if (!guard.ok) return { ok: false, reason: `address refused: ${guard.reason}` };
  const signature = signPayload(secret, body, Math.floor(Date.now() / 1000));
  const isHttps = url.protocol === 'https:';
  return new Promise<DeliveryResult>((resolve) => {
    let settled = false;
    const settle = (result: DeliveryResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(result);
    };
    const tooSlow = { ok: false as const, reason: `no complete answer within ${timeoutMs / 1000} s` };
    const req = (isHttps ? https : http).request(
      {
        protocol: url.protocol,
        hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
        port: url.port || (isHttps ? 443 : 80),
        path: url.pathname + url.search,
        method: 'POST',
        lookup: pinnedLookup(guard.address, guard.family),
        timeout: timeoutMs,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'Almanac-Signature': signature,
          'User-Agent': 'Almanac-Webhooks/1',
        },
      },
      (res) => {
        res.resume();
        const status = res.statusCode ?? 0;
        res.on('end', () => settle(status >= 200 && status < 300 ? { ok: true, status } : { ok: false, reason: `HTTP ${status}` }));
        res.on('error', () => settle({ ok: false, reason: 'the answer broke off' }));
      },
    );
    const deadline = setTimeout(() => {
      settle(tooSlow);
      req.destroy();
    }, timeoutMs);
    req.on('timeout', () => {
      settle(tooSlow);
      req.destroy();
    });
    req.on('error', (err: NodeJS.ErrnoException) => settle({ ok: false, reason: `connection failed (${err.code ?? 'error'})` }));
    req.end(body);
  });
}

/** Throws on failure so the queue retries; a webhook removed since leaves nothing to do. */
export async function deliverAlertWebhook(eventId: string, options: { db?: Executor; policy?: GuardPolicy } = {}): Promise<void> {
  const db = options.db ?? (await getDb());
  const event = await findAlertEvent(db, eventId);
  if (!event) return;
  const [hook] = await db.select().from(alertWebhooks).where(eq(alertWebhooks.subscriptionId, event.subscriptionId));
  if (!hook) return;
  const result = await postSignedWebhook(hook.url, decryptSecret(hook.secretCiphertext), alertWebhookBody(event), options.policy);
  if (!result.ok) throw new Error(`alert webhook not delivered: ${result.reason}`);
}

/** "Send test event": a signed `usage.test` event posted now (not queued), and what the receiver answered. */
export async function sendTestAlertWebhook(
  db: Executor,
  input: { userId: string; subscriptionId: string },
  policy: GuardPolicy = guardPolicy(),
): Promise<DeliveryResult | { ok: false; reason: 'no_webhook' }> {
  const owned = await findOwnedSubscription(db, input.userId, input.subscriptionId);
  if (!owned) return { ok: false, reason: 'no_webhook' };
  const [hook] = await db.select().from(alertWebhooks).where(eq(alertWebhooks.subscriptionId, input.subscriptionId));
  if (!hook) return { ok: false, reason: 'no_webhook' };
  const now = new Date();
  const event: AlertEvent = {
    eventId: `evt_test_${randomBase62(20)}`,
    threshold: 80,
    used: 80,
    cap: 100,
    createdAt: now,
    subscriptionId: owned.id,
    kbId: owned.kbId,
    periodStart: now,
    periodEnd: null,
  };
  return postSignedWebhook(hook.url, decryptSecret(hook.secretCiphertext), alertWebhookBody(event, true), policy);
}

export function registerAlertJobs(): void {
  defineJobHandler(ALERT_WEBHOOK_QUEUE, async (payload: { eventId: string }) => deliverAlertWebhook(payload.eventId));
}
