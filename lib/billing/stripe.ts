import Stripe from 'stripe';
import { getEnv } from '@/lib/platform/env';
import { processSingleton } from '@/lib/platform/singleton';

/** The Stripe client, one per configuration, and webhook signatures; without Stripe keys purchases run in test mode. */

export type { Stripe };

/** `apiBase` points the real library at another host (the tests' fake Stripe); everything else stays the library's. */
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

export function isStripeConfigured(): boolean {
  return Boolean(getEnv().STRIPE_SECRET_KEY);
}

export function getStripe(): Stripe | null {
  const env = getEnv();
  if (!env.STRIPE_SECRET_KEY) return null;
  const slot = `stripe:${env.STRIPE_API_BASE ?? 'api.stripe.com'}:${env.STRIPE_SECRET_KEY.slice(-6)}`;
  return processSingleton(slot, () => createStripeClient(env.STRIPE_SECRET_KEY!, env.STRIPE_API_BASE));
}

/**
 * Verifies a delivery on its RAW body (re-serialising breaks the signature); null when anything is wrong. Several
 * comma-separated secrets: Connect events have their own endpoint secret, and a rotated secret overlaps its successor.
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
