import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local fake of the few Stripe endpoints Almanac calls, so tests drive the real `stripe` library (encoding, auth,
 * idempotency keys, error mapping) without the network. Helpers play Stripe's side: pay a checkout, renew, and sign
 * webhook events with the library's own `generateTestHeaderString`.
 */

interface RecordedRequest {
  method: string;
  path: string;
  /** Form fields exactly as the library encoded them, e.g. `line_items[0][price_data][unit_amount]`. */
  params: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
}

interface WebhookDelivery {
  eventId: string;
  type: string;
  url: string;
  status?: number;
  error?: string;
}

interface FakeStripeWebhook {
  url: string;
  secret: string;
  delayMs?: number;
  /** Keeps each delivery until releaseWebhooks(): a test that checks the state before the webhook, whatever the load. */
  held?: boolean;
}

const rid = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface FakeStripe {
  baseUrl: string;
  secretKey: string;
  requests: RecordedRequest[];
  customers: Map<string, Record<string, unknown>>;
  sessions: Map<string, Record<string, unknown>>;
  subscriptions: Map<string, Stripe.Subscription>;
  /** Prices created through POST /v1/prices (a subscription item moved to one of them bills its amount). */
  prices: Map<string, Stripe.Price>;
  /** Connect Express accounts; `completeOnboarding` plays the publisher finishing Stripe's onboarding. */
  accounts: Map<string, Record<string, unknown>>;
  completeOnboarding(accountId: string): void;
  deliveries: WebhookDelivery[];
  /**
   * Sets (or clears) where paying delivers its webhook, for apps whose URL is known only after the fake has started
   * (the app needs the fake's baseUrl in its environment first). Applies to payments made after the call.
   */
  setWebhook(webhook: FakeStripeWebhook | undefined): void;
  /** Sends the deliveries a `held` webhook kept, each after its delayMs. */
  releaseWebhooks(): void;
  completeCheckout(sessionId: string, period?: { start: number; end: number }): { session: Stripe.Checkout.Session; subscription: Stripe.Subscription };
  /**
   * Plays Stripe's renewal: the subscription's next period (30 days) becomes current, and the returned invoice (paid)
   * charges the item's price as it is NOW, which is how a price changed with `proration_behavior: none` reaches the
   * next invoice.
   */
  renew(subscriptionId: string): Stripe.Invoice;
  failNext(path: string, status: number): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

export interface FakeStripeOptions {
  /**
   * Plays Stripe's hosted pages and webhooks for browser runs: GET /pay/:session shows a "Pay" button; paying
   * completes the checkout, redirects to the success URL and, after `delayMs`, POSTs a signed
   * checkout.session.completed to `url` (so the success page's "waiting for confirmation" state is exercised).
   * Can also be set after start with `setWebhook`.
   */
  webhook?: FakeStripeWebhook;
  port?: number;
}

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const customers = new Map<string, Record<string, unknown>>();
  const accounts = new Map<string, Record<string, unknown>>();
  const sessions = new Map<string, Record<string, unknown>>();
  const subscriptions = new Map<string, Stripe.Subscription>();
  const prices = new Map<string, Stripe.Price>();
  const failures = new Map<string, number>();
  const idempotent = new Map<string, string>();
  const deliveries: WebhookDelivery[] = [];
  const heldDeliveries: Array<() => void> = [];
  let webhook = options.webhook;
  let baseUrl = '';

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    const params = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : raw));
    requests.push({ method: req.method ?? 'GET', path: url.pathname, params, headers: req.headers });
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': rid('req') });
      res.end(text);
    };
    const payMatch = /^\/pay\/([^/]+)$/.exec(url.pathname);
    if (payMatch) {
      const session = sessions.get(decodeURIComponent(payMatch[1]!));
      if (!session) return send(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
      if (req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        return res.end(
          `<!doctype html><html lang="en"><head><title>Fake Stripe Checkout</title></head><body><main><h1>Fake Stripe Checkout</h1>` +
            `<form method="post"><button type="submit">Pay</button></form></main></body></html>`,
        );
      }
      const { session: completed } = fake.completeCheckout(String(session.id));
      if (webhook) {
        const { url: hookUrl, secret, delayMs = 0, held = false } = webhook;
        const payload = buildEvent('checkout.session.completed', completed);
        const delivery: WebhookDelivery = { eventId: (JSON.parse(payload) as { id: string }).id, type: 'checkout.session.completed', url: hookUrl };
        const deliver = () =>
          setTimeout(() => {
            void fetch(hookUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(payload, secret) },
              body: payload,
            }).then(
              async (response) => {
                await response.text().catch(() => '');
                deliveries.push({ ...delivery, status: response.status });
              },
              (error: unknown) => deliveries.push({ ...delivery, error: String(error) }),
            );
          }, delayMs);
        if (held) heldDeliveries.push(deliver);
        else deliver();
      }
      res.writeHead(303, { Location: String(session.success_url).replace('{CHECKOUT_SESSION_ID}', String(session.id)) });
      return res.end();
    }
    const failure = failures.get(url.pathname);
    if (failure) {
      failures.delete(url.pathname);
      return send(failure, { error: { type: 'api_error', message: 'Injected failure' } });
    }
    if (req.headers.authorization !== `Bearer ${fake.secretKey}`) {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    const idemKey = req.headers['idempotency-key'];
    if (req.method === 'POST' && typeof idemKey === 'string' && idempotent.has(`${url.pathname}:${idemKey}`)) {
      return send(200, JSON.parse(idempotent.get(`${url.pathname}:${idemKey}`)!));
    }
    const remember = (body: unknown) => {
      if (req.method === 'POST' && typeof idemKey === 'string') idempotent.set(`${url.pathname}:${idemKey}`, JSON.stringify(body));
      return send(200, body);
    };

    if (req.method === 'POST' && url.pathname === '/v1/accounts') {
      const account = {
        id: rid('acct'),
        object: 'account',
        type: params.type,
        email: params.email ?? null,
        metadata: pickMetadata(params, 'metadata'),
        details_submitted: false,
        charges_enabled: false,
      };
      accounts.set(account.id, account);
      return remember(account);
    }
    const accountMatch = /^\/v1\/accounts\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && accountMatch) {
      const account = accounts.get(decodeURIComponent(accountMatch[1]!));
      return account ? send(200, account) : send(404, { error: { type: 'invalid_request_error', message: 'No such account' } });
    }
    if (req.method === 'POST' && url.pathname === '/v1/account_links') {
      if (!params.account || !accounts.has(params.account))
        return send(400, { error: { type: 'invalid_request_error', message: `No such account: '${params.account}'` } });
      return remember({
        object: 'account_link',
        url: `${baseUrl}/connect/${params.account}`,
        return_url: params.return_url,
        refresh_url: params.refresh_url,
        expires_at: nowSeconds() + 300,
      });
    }
    if (req.method === 'POST' && url.pathname === '/v1/prices') {
      const price = {
        id: rid('price'),
        object: 'price',
        currency: params.currency,
        unit_amount: Number(params.unit_amount),
        recurring: { interval: params['recurring[interval]'] },
        product: rid('prod'),
        metadata: pickMetadata(params, 'metadata'),
      } as unknown as Stripe.Price;
      prices.set(price.id, price);
      return remember(price);
    }
    if (req.method === 'POST' && url.pathname === '/v1/customers') {
      const customer = { id: rid('cus'), object: 'customer', email: params.email ?? null, metadata: pickMetadata(params, 'metadata') };
      customers.set(customer.id, customer);
      return remember(customer);
    }
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      if (!params.customer || !customers.has(params.customer)) {
        return send(400, { error: { type: 'invalid_request_error', message: `No such customer: '${params.customer}'` } });
      }
      const id = `cs_test_${randomBytes(16).toString('hex')}`;
      const session = {
        id,
        object: 'checkout.session',
        mode: params.mode,
        status: 'open',
        payment_status: 'unpaid',
        customer: params.customer,
        client_reference_id: params.client_reference_id ?? null,
        metadata: pickMetadata(params, 'metadata'),
        subscription_metadata: pickMetadata(params, 'subscription_data[metadata]'),
        // Connect destination charges: what the platform keeps and where the rest goes.
        application_fee_percent: params['subscription_data[application_fee_percent]'] ? Number(params['subscription_data[application_fee_percent]']) : null,
        transfer_destination: params['subscription_data[transfer_data][destination]'] ?? null,
        subscription: null,
        success_url: params.success_url,
        cancel_url: params.cancel_url,
        url: `${baseUrl}/pay/${id}`,
        line_item: {
          price: params['line_items[0][price]'] ?? null,
          unit_amount: params['line_items[0][price_data][unit_amount]'] ?? null,
          currency: params['line_items[0][price_data][currency]'] ?? null,
        },
      };
      sessions.set(id, session);
      return remember(session);
    }
    const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && sessionMatch) {
      const session = sessions.get(decodeURIComponent(sessionMatch[1]!));
      return session ? send(200, session) : send(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
    }
    const subMatch = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && subMatch) {
      const sub = subscriptions.get(decodeURIComponent(subMatch[1]!));
      return sub ? send(200, sub) : send(404, { error: { type: 'invalid_request_error', message: 'No such subscription' } });
    }
    if (req.method === 'POST' && subMatch) {
      const sub = subscriptions.get(decodeURIComponent(subMatch[1]!));
      if (!sub) return send(404, { error: { type: 'invalid_request_error', message: 'No such subscription' } });
      if (params.cancel_at_period_end !== undefined) sub.cancel_at_period_end = params.cancel_at_period_end === 'true';
      Object.assign(sub.metadata, pickMetadata(params, 'metadata'));
      const item = sub.items.data[0]!;
      // Stripe refuses an item id that is not one of the subscription's (it would add a second item otherwise).
      if (params['items[0][id]'] !== undefined && params['items[0][id]'] !== item.id) {
        return send(400, { error: { type: 'invalid_request_error', message: `No such subscription item: '${params['items[0][id]']}'` } });
      }
      const newPrice = params['items[0][price]'];
      if (newPrice) item.price = prices.get(newPrice) ?? { ...item.price, id: newPrice };
      else if (params['items[0][price_data][unit_amount]']) {
        item.price = {
          ...item.price,
          id: rid('price'),
          unit_amount: Number(params['items[0][price_data][unit_amount]']),
          currency: params['items[0][price_data][currency]'] ?? item.price.currency,
        };
      }
      return remember(sub);
    }
    if (req.method === 'POST' && url.pathname === '/v1/invoices/create_preview') {
      // The proration invoice of an item change (proration_behavior always_invoice): the price difference for the
      // rest of the period, as Stripe computes it by the second. Prices known only by id count as 0.
      const sub = params.subscription ? subscriptions.get(params.subscription) : undefined;
      if (!sub) return send(404, { error: { type: 'invalid_request_error', message: 'No such subscription' } });
      const item = sub.items.data[0]!;
      const oldAmount = item.price.unit_amount ?? 0;
      const newAmount = Number(params['subscription_details[items][0][price_data][unit_amount]'] ?? 0);
      const at = Number(params['subscription_details[proration_date]'] ?? nowSeconds());
      const share = Math.max(0, item.current_period_end - at) / (item.current_period_end - item.current_period_start);
      const amount = Math.max(0, Math.round((newAmount - oldAmount) * share));
      return send(200, {
        id: `upcoming_${rid('in')}`,
        object: 'invoice',
        subscription: sub.id,
        currency: item.price.currency ?? 'usd',
        amount_due: amount,
        total: amount,
      });
    }
    if (req.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
      if (!params.customer || !customers.has(params.customer)) {
        return send(400, { error: { type: 'invalid_request_error', message: `No such customer: '${params.customer}'` } });
      }
      return remember({
        id: rid('bps'),
        object: 'billing_portal.session',
        customer: params.customer,
        return_url: params.return_url,
        url: `${baseUrl}/portal/${rid('p')}`,
      });
    }
    return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` } });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeStripe = {
    baseUrl,
    secretKey: 'sk_test_fake_almanac_0000000000',
    requests,
    customers,
    sessions,
    subscriptions,
    prices,
    deliveries,
    setWebhook(next) {
      webhook = next;
    },
    releaseWebhooks() {
      for (const deliver of heldDeliveries.splice(0)) deliver();
    },
    accounts,
    completeOnboarding(accountId) {
      const account = accounts.get(accountId);
      if (!account) throw new Error(`fake-stripe: no account ${accountId}`);
      Object.assign(account, { details_submitted: true, charges_enabled: true });
    },
    completeCheckout(sessionId, period) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`fake-stripe: no session ${sessionId}`);
      const start = period?.start ?? nowSeconds();
      const end = period?.end ?? start + 30 * 86_400;
      const subscription = buildSubscription({
        customer: String(session.customer),
        metadata: session.subscription_metadata as Record<string, string>,
        priceId: (session.line_item as { price: string | null }).price ?? rid('price'),
        start,
        end,
      });
      const lineItem = session.line_item as { price: string | null; unit_amount: string | null; currency: string | null };
      const known = lineItem.price ? prices.get(lineItem.price) : undefined;
      if (known) subscription.items.data[0]!.price = known;
      else if (lineItem.unit_amount)
        Object.assign(subscription.items.data[0]!.price, { unit_amount: Number(lineItem.unit_amount), currency: lineItem.currency });
      subscriptions.set(subscription.id, subscription);
      Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subscription.id });
      return { session: session as unknown as Stripe.Checkout.Session, subscription };
    },
    renew(subscriptionId) {
      const sub = subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`fake-stripe: no subscription ${subscriptionId}`);
      const item = sub.items.data[0]!;
      const start = item.current_period_end;
      Object.assign(item, { current_period_start: start, current_period_end: start + 30 * 86_400 });
      return buildInvoice({
        subscriptionId,
        customer: String(sub.customer),
        start,
        end: item.current_period_end,
        paid: true,
        amountPaid: item.price.unit_amount ?? 0,
        currency: item.price.currency ?? 'usd',
      });
    },
    failNext(path, status) {
      failures.set(path, status);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}

function pickMetadata(params: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = new RegExp(`^${prefix.replace(/[[\]]/g, '\\$&')}\\[([^\\]]+)\\]$`);
  for (const [k, v] of Object.entries(params)) {
    const m = re.exec(k);
    if (m) out[m[1]!] = v;
  }
  return out;
}

/** A Subscription object shaped like the current API (periods live on the items). */
export function buildSubscription(input: {
  id?: string;
  customer: string;
  metadata?: Record<string, string>;
  priceId: string;
  start: number;
  end: number;
  status?: Stripe.Subscription.Status;
  cancelAtPeriodEnd?: boolean;
}): Stripe.Subscription {
  const id = input.id ?? rid('sub');
  return {
    id,
    object: 'subscription',
    customer: input.customer,
    status: input.status ?? 'active',
    cancel_at_period_end: input.cancelAtPeriodEnd ?? false,
    cancel_at: null,
    canceled_at: null,
    ended_at: null,
    metadata: input.metadata ?? {},
    items: {
      object: 'list',
      data: [
        {
          id: rid('si'),
          object: 'subscription_item',
          subscription: id,
          current_period_start: input.start,
          current_period_end: input.end,
          price: { id: input.priceId, object: 'price', product: 'prod_fake', recurring: { interval: 'month' } },
          quantity: 1,
        },
      ],
    },
  } as unknown as Stripe.Subscription;
}

/** An invoice for a subscription's service period (invoice.paid / invoice.payment_failed payloads). */
export function buildInvoice(input: {
  subscriptionId: string;
  customer: string;
  start: number;
  end: number;
  paid: boolean;
  amountPaid?: number;
  currency?: string;
}): Stripe.Invoice {
  return {
    id: rid('in'),
    object: 'invoice',
    customer: input.customer,
    status: input.paid ? 'paid' : 'open',
    ...(input.amountPaid === undefined ? {} : { amount_paid: input.amountPaid, currency: input.currency ?? 'usd' }),
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: input.subscriptionId, metadata: {} } },
    lines: {
      object: 'list',
      data: [{ id: rid('il'), object: 'line_item', period: { start: input.start, end: input.end }, parent: null, subscription: input.subscriptionId }],
    },
  } as unknown as Stripe.Invoice;
}

/**
 * An event envelope as Stripe sends it. `created` (Unix seconds) drives out-of-order checks; `account` marks an event
 * of a connected account (what a Connect endpoint receives, e.g. account.updated).
 */
export function buildEvent(type: string, object: unknown, options: { id?: string; created?: number; account?: string } = {}): string {
  return JSON.stringify({
    id: options.id ?? rid('evt'),
    object: 'event',
    ...(options.account ? { account: options.account } : {}),
    api_version: '2026-10-28.endive',
    created: options.created ?? nowSeconds(),
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
}

export function signPayload(payload: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}
