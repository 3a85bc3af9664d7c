import Stripe from 'stripe';
import { getEnv } from '@/lib/platform/env';
import { processSingleton } from '@/lib/platform/singleton';

export type { Stripe };

/**
 * Builds a Stripe client. `apiBase` (STRIPE_API_BASE) points the real library at another host — the tests run a
 * local fake of Stripe's HTTP API — while everything else (request encoding, retries, errors) stays the library's.
 */
export function createStripeClient(secretKey: string, apiBase?: string): Stripe {
  const config: ConstructorParameters<typeof Stripe>[1] = { maxNetworkRetries: 1, timeout: 20_000, telemetry: false };
  if (apiBase) {
    const url = new URL(apiBase);
    config.host = url.hostname;
    config.port = url.port || (url.protocol === 'http:' ? 80 : 443);
    config.protocol = url.protocol === 'http:' ? 'http' : 'https';
  }
  return new Stripe(secretKey, config);
}

/** True when purchases go through Stripe Checkout; false means the built-in test checkout. */
export function isStripeConfigured(): boolean {
  return Boolean(getEnv().STRIPE_SECRET_KEY);
}

/** The process-wide client, or null when Stripe is not configured (keyed by config so tests can switch it). */
export function getStripe(): Stripe | null {
  const env = getEnv();
  if (!env.STRIPE_SECRET_KEY) return null;
  const slot = `stripe:${env.STRIPE_API_BASE ?? 'api.stripe.com'}:${env.STRIPE_SECRET_KEY.slice(-6)}`;
  return processSingleton(slot, () => createStripeClient(env.STRIPE_SECRET_KEY!, env.STRIPE_API_BASE));
}

/**
 * Verifies a webhook delivery on its RAW body (any re-serialisation breaks the signature) and returns the event,
 * or null when the signature, timestamp or payload is wrong. Verification needs no network, so a client built
 * from any key works; the webhook secret is what matters. `webhookSecrets` may list several secrets separated by
 * commas: Stripe signs the events of connected accounts (account.updated) through a Connect endpoint, which has a
 * signing secret of its own, and a rotated secret overlaps its successor for a while (README, Payments).
 */
export function verifyStripeEvent(rawBody: string, signatureHeader: string | null, webhookSecrets: string): Stripe.Event | null {
  if (!signatureHeader) return null;
  for (const secret of webhookSecrets
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    try {
      return Stripe.webhooks.constructEvent(rawBody, signatureHeader, secret);
    } catch {
      // Not this secret's signature (or not a valid delivery at all): try the next one.
    }
  }
  return null;
}
