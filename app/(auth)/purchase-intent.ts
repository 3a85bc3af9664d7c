import { findPurchasablePlan } from '@/lib/billing';
import { getDb } from '@/lib/platform/db';

/**
 * What a signed-out buyer was doing when the Buy button sent them to sign in (`?plan=<planId>`, set by
 * app/checkout/start): "buy Starter of U.S. Constitution Companion", or null for no plan or one no longer on sale.
 * Only the plan's public name and listing title are shown, so a crafted link cannot put other text on the page.
 */
export async function purchaseIntent(plan: unknown): Promise<string | null> {
  if (typeof plan !== 'string' || plan.length > 64) return null;
  const found = await findPurchasablePlan(await getDb(), plan);
  if (!found) return null;
  return `${found.priceCents === 0 ? 'get' : 'buy'} ${found.planName} of ${found.kbTitle}`;
}

/** The `plan` parameter to carry from sign-in to sign-up and back. */
export const planParam = (plan: unknown) => (typeof plan === 'string' && plan.length <= 64 ? `&plan=${encodeURIComponent(plan)}` : '');
