'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { completeTestPurchase } from '@/lib/billing';
import { getDb } from '@/lib/platform/db';
import { formDataOf, idSchema } from '@/lib/platform/text-input';
import { requireSessionUser } from '@/lib/accounts';

const inputSchema = z.object({ planId: idSchema() });

/** "Complete test purchase": subscription + alm_sk_test_ key, then the one-time reveal on the success page. */
export async function completeTestPurchaseAction(formData: FormData): Promise<void> {
  const parsed = inputSchema.safeParse({ planId: formDataOf(formData).get('planId') });
  if (!parsed.success) redirect('/knowledge-bases');
  const user = await requireSessionUser(`/checkout/test?planId=${encodeURIComponent(parsed.data.planId)}`);
  const result = await completeTestPurchase(await getDb(), { userId: user.id, planId: parsed.data.planId });
  if (result.ok) redirect(`/checkout/success?handoff=${encodeURIComponent(result.handoffId)}`);
  redirect(`/checkout/test?planId=${encodeURIComponent(parsed.data.planId)}&error=${encodeURIComponent(result.code)}`);
}
