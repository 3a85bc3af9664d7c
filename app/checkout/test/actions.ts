'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { completeTestPurchase } from '@/lib/billing';
import { getDb } from '@/lib/platform/db';
import { formDataOf, idSchema } from '@/lib/platform/text-input';
import { requireSessionUser, requireVerifiedEmail, VERIFY_FIRST_PATH } from '@/lib/accounts';
import { FORM_TOKEN_FIELD, onceForForm } from '@/lib/platform/form-submissions';

const inputSchema = z.object({ planId: idSchema() });

/** "Complete test purchase": subscription + alm_sk_test_ key, then the one-time reveal on the success page. */
export async function completeTestPurchaseAction(formData: FormData): Promise<void> {
  const parsed = inputSchema.safeParse({ planId: formDataOf(formData).get('planId') });
  if (!parsed.success) redirect('/knowledge-bases');
  const user = await requireSessionUser(`/checkout/test?planId=${encodeURIComponent(parsed.data.planId)}`);
  const db = await getDb();
  if (!(await requireVerifiedEmail(db, user.id)).ok) redirect(VERIFY_FIRST_PATH);
  const token = formDataOf(formData).get(FORM_TOKEN_FIELD);
  const success = (handoffId: string) => `/checkout/success?handoff=${encodeURIComponent(handoffId)}`;
  // A double click buys once and both clicks land on the one key reveal (docs/api.md §7.4).
  const once = await onceForForm(
    db,
    { userId: user.id, token: typeof token === 'string' ? token : null },
    (tx) => completeTestPurchase(tx, { userId: user.id, planId: parsed.data.planId }),
    (r) => (r.ok ? success(r.handoffId) : null),
  );
  if (once.repeated) redirect(once.destination);
  const result = once.result;
  if (result.ok) redirect(success(result.handoffId));
  redirect(`/checkout/test?planId=${encodeURIComponent(parsed.data.planId)}&error=${encodeURIComponent(result.code)}`);
}
