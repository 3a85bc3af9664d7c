'use server';

import { redirect } from 'next/navigation';
import { FORM_TOKEN_FIELD, onceForForm } from '@/lib/platform/form-submissions';
import { z } from 'zod';
import { withFlash, type FlashCode } from '@/components/account/flash';
import { requireSessionUser } from '@/lib/accounts';
import { cancelAtPeriodEnd, changePlan, createBillingPortalUrl, issueReplacementKeyForReveal, resumeRenewal } from '@/lib/billing';
import { revokeKey } from '@/lib/keys';
import { getDb, type Executor } from '@/lib/platform/db';
import { formDataOf, idSchema } from '@/lib/platform/text-input';

/**
 * Dashboard actions. Each one: parse, take the user from the session (never from the form), call one lib function
 * (they check ownership: someone else's id is `not_found`), and redirect back with a flash code saying what happened.
 */
const id = idSchema(); // docs/api.md §7.2: a malformed id is `not_found`, never a database error
const subscriptionForm = z.object({ subscriptionId: id });
const planChangeForm = subscriptionForm.extend({ planId: id });

/** A refusal from lib (someone else's subscription or key is simply `not_found`), as the flash that explains it. */
type Refusal = { ok: false; code: FlashCode };

const subscriptionPath = (subscriptionId: string) => `/account/subscriptions/${encodeURIComponent(subscriptionId)}`;

/**
 * The prologue of every subscription action: parse the form (a malformed one goes back to the account page), take
 * the user from the session, call `change` for them; a refusal goes back to the subscription with its flash, a
 * success is returned with the subscription's path.
 */
async function onSubscription<Input extends { subscriptionId: string }, Result extends { ok: true } | Refusal>(
  formData: FormData,
  form: z.ZodType<Input>,
  change: (db: Executor, input: Input & { userId: string }) => Promise<Result>,
): Promise<{ path: string; done: Extract<Result, { ok: true }> }> {
  const parsed = form.safeParse(Object.fromEntries(formDataOf(formData)));
  if (!parsed.success) redirect(withFlash('/account', 'not_found'));
  const path = subscriptionPath(parsed.data.subscriptionId);
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

export async function cancelSubscriptionAction(formData: FormData): Promise<void> {
  const { path } = await onSubscription(formData, subscriptionForm, cancelAtPeriodEnd);
  redirect(withFlash(path, 'cancelled'));
}

export async function resumeSubscriptionAction(formData: FormData): Promise<void> {
  const { path } = await onSubscription(formData, subscriptionForm, resumeRenewal);
  redirect(withFlash(path, 'resumed'));
}

/** A replacement key (the old one keeps working until revoked), revealed once through the handoff. */
export async function createReplacementKeyAction(formData: FormData): Promise<void> {
  const token = formDataOf(formData).get(FORM_TOKEN_FIELD);
  const reveal = (handoffId: string) => `/account/keys/reveal?handoff=${encodeURIComponent(handoffId)}`;
  // A double click makes one key: the second submission goes to the first one's reveal (docs/api.md §7.4).
  const { done } = await onSubscription(formData, subscriptionForm, async (db, input) => {
    const once = await onceForForm(db, { userId: input.userId, token: typeof token === 'string' ? token : null }, (tx) => issueReplacementKeyForReveal(tx, input), (r) => (r.ok ? reveal(r.handoffId) : null));
    return once.repeated ? { ok: true as const, to: once.destination } : once.result.ok ? { ok: true as const, to: reveal(once.result.handoffId) } : once.result;
  });
  redirect(done.to);
}

export async function revokeKeyAction(formData: FormData): Promise<void> {
  const parsed = z.object({ keyId: id, confirm: z.literal('yes') }).safeParse(Object.fromEntries(formDataOf(formData)));
  if (!parsed.success) redirect(withFlash('/account/keys', 'not_found'));
  const user = await requireSessionUser('/account/keys');
  const result = await revokeKey(await getDb(), { userId: user.id, keyId: parsed.data.keyId });
  redirect(withFlash('/account/keys', result.ok ? 'key_revoked' : result.code));
}

export async function openBillingPortalAction(): Promise<void> {
  const user = await requireSessionUser('/account');
  const result = await createBillingPortalUrl(await getDb(), user.id);
  redirect(result.ok ? result.url : withFlash('/account', result.code));
}
