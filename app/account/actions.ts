'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { withFlash, type FlashCode } from '@/components/account/flash';
import { requireSessionUser, requireVerifiedEmail, VERIFY_FIRST_PATH } from '@/lib/accounts';
import { cancelAtPeriodEnd, changePlan, createBillingPortalUrl, downgradeAtRenewal, issueReplacementKeyForReveal, resumeRenewal } from '@/lib/billing';
import { normalizeKeyName, renameKey, revokeKey } from '@/lib/keys';
import { getDb, type Executor } from '@/lib/platform/db';
import type { Refusal } from '@/lib/platform/transactions';
import { formDataOf, idSchema } from '@/lib/platform/text-input';
import { readForm, runOncePerForm } from '@/lib/site/form-action';
import { accountPaths } from '@/lib/site/paths';

// Dashboard actions: the user comes from the session, never the form, and lib's ownership checks make someone else's
// id `not_found`.
const id = idSchema(); // docs/api.md §7.2: a malformed id is `not_found`, never a database error
const subscriptionForm = z.object({ subscriptionId: id });
const planChangeForm = subscriptionForm.extend({ planId: id });
// Longer than any name allowed, so normalizeKeyName (not zod) says why a name is refused.
const keyNameField = z.string().max(1_000).optional().default('');

type FlashRefusal = Pick<Refusal<FlashCode>, 'ok' | 'code'>;

async function onSubscription<Input extends { subscriptionId: string }, Result extends { ok: true } | FlashRefusal>(
  formData: FormData,
  form: z.ZodType<Input>,
  change: (db: Executor, input: Input & { userId: string }) => Promise<Result>,
): Promise<{ path: string; done: Extract<Result, { ok: true }> }> {
  const parsed = readForm(formData, form);
  if (!parsed.success) redirect(withFlash('/account', 'not_found'));
  const path = accountPaths.subscription(parsed.data.subscriptionId);
  const user = await requireSessionUser(path);
  const result = await change(await getDb(), { ...parsed.data, userId: user.id });
  if (!result.ok) redirect(withFlash(path, result.code));
  // `ok` is true here; TypeScript does not narrow a type parameter to its Extract.
  return { path, done: result as Extract<Result, { ok: true }> };
}

export async function changePlanAction(formData: FormData): Promise<void> {
  const { path } = await onSubscription(formData, planChangeForm, changePlan);
  redirect(withFlash(path, 'plan_changed'));
}

/** The current plan's id withdraws a scheduled downgrade. */
export async function downgradePlanAction(formData: FormData): Promise<void> {
  const { path, done } = await onSubscription(formData, planChangeForm, downgradeAtRenewal);
  redirect(withFlash(path, done.subscription.pendingPlanId ? 'downgrade_scheduled' : 'downgrade_withdrawn'));
}

export async function cancelSubscriptionAction(formData: FormData): Promise<void> {
  const { path } = await onSubscription(formData, subscriptionForm, cancelAtPeriodEnd);
  redirect(withFlash(path, 'cancelled'));
}

export async function resumeSubscriptionAction(formData: FormData): Promise<void> {
  const { path } = await onSubscription(formData, subscriptionForm, resumeRenewal);
  redirect(withFlash(path, 'resumed'));
}

/** The old key keeps working until revoked. */
export async function createReplacementKeyAction(formData: FormData): Promise<void> {
  const named = keyNameField.safeParse(formDataOf(formData).get('name') ?? undefined);
  const name = named.success ? normalizeKeyName(named.data) : null;
  const reveal = (handoffId: string) => `/account/keys/reveal?handoff=${encodeURIComponent(handoffId)}`;
  // A double click makes one key: the second submission goes to the first one's reveal (docs/api.md §7.4).
  const { done } = await onSubscription(formData, subscriptionForm, async (db, input) => {
    if (!name?.ok) return { ok: false as const, code: 'key_name_invalid' as const };
    if (!(await requireVerifiedEmail(db, input.userId)).ok) redirect(VERIFY_FIRST_PATH);
    const issued = await runOncePerForm(
      formData,
      input.userId,
      (tx) => issueReplacementKeyForReveal(tx, { ...input, name: name.name }),
      (r) => (r.ok ? reveal(r.handoffId) : null),
      { db },
    );
    return issued.ok ? { ok: true as const, to: reveal(issued.handoffId) } : issued;
  });
  redirect(done.to);
}

export async function revokeKeyAction(formData: FormData): Promise<void> {
  const parsed = readForm(formData, z.object({ keyId: id, confirm: z.literal('yes') }));
  if (!parsed.success) redirect(withFlash('/account/keys', 'not_found'));
  const user = await requireSessionUser('/account/keys');
  const result = await revokeKey(await getDb(), { userId: user.id, keyId: parsed.data.keyId });
  redirect(withFlash('/account/keys', result.ok ? (result.key.kind === 'oauth_grant' ? 'grant_revoked' : 'key_revoked') : result.code));
}

export async function renameKeyAction(formData: FormData): Promise<void> {
  const parsed = readForm(formData, z.object({ keyId: id, name: keyNameField, returnTo: z.enum(['keys', 'subscription']).optional() }));
  if (!parsed.success) redirect(withFlash('/account/keys', 'not_found'));
  const user = await requireSessionUser('/account/keys');
  const back = accountPaths.renameKey(parsed.data.keyId);
  const name = normalizeKeyName(parsed.data.name);
  if (!name.ok) redirect(withFlash(back, 'key_name_invalid'));
  const result = await renameKey(await getDb(), { userId: user.id, keyId: parsed.data.keyId, name: name.name });
  if (!result.ok) redirect(withFlash('/account/keys', result.code === 'conflict' ? 'key_is_revoked' : result.code));
  const done = parsed.data.returnTo === 'subscription' ? accountPaths.subscription(result.key.subscriptionId) : '/account/keys';
  redirect(withFlash(done, 'key_renamed'));
}

export async function openBillingPortalAction(): Promise<void> {
  const user = await requireSessionUser('/account');
  const result = await createBillingPortalUrl(await getDb(), user.id);
  redirect(result.ok ? result.url : withFlash('/account', result.code));
}
