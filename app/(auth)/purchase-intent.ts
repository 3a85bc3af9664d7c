import { findPurchasablePlan } from '@/lib/billing';
import { getDb } from '@/lib/platform/db';

// What a signed-out buyer was buying when sent to sign in (`?plan=`). Only the plan's public name and listing title are
// shown, so a crafted link cannot put other text on the page.
export async function purchaseIntent(plan: unknown): Promise<string | null> {
  if (typeof plan !== 'string' || plan.length > 64) return null;
  const found = await findPurchasablePlan(await getDb(), plan);
  if (!found) return null;
  return `${found.priceCents === 0 ? 'get' : 'buy'} ${found.planName} of ${found.kbTitle}`;
}

export const planParam = (plan: unknown) => (typeof plan === 'string' && plan.length <= 64 ? `&plan=${encodeURIComponent(plan)}` : '');
