import { applyStripeEvent } from '@/lib/billing';
import { getDb } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { errorResponse, jsonResponse, withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';
import { getStripe, verifyStripeEvent } from '@/lib/billing';

export const dynamic = 'force-dynamic';

/** Stripe's events are a few KB; a larger body is refused before its signature is computed over it. */
const STRIPE_EVENT_LIMIT = 512 * 1024;

const webhook = withApiRoute(async (request, { requestId }) => {
  const secret = getEnv().STRIPE_WEBHOOK_SECRET;
  if (!secret) return errorResponse('service_unavailable', 'Stripe webhooks are not configured on this server.', requestId);
  // Re-serialising would change the bytes the signature covers.
  const raw = await request.text();
  const event = verifyStripeEvent(raw, request.headers.get('stripe-signature'), secret);
  if (!event) return errorResponse('invalid_request', 'The Stripe-Signature header does not match this payload.', requestId);
  const result = await applyStripeEvent(await getDb(), event, getStripe());
  return jsonResponse({ received: true, duplicate: result.duplicate, ...(result.duplicate ? {} : { outcome: result.outcome }) });
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: webhook }, { bodyLimit: STRIPE_EVENT_LIMIT });
