'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { cancelAtPeriodEnd, changePlan, createBillingPortalUrl, resumeRenewal } from '@/lib/billing';
import { issueReplacementKeyForReveal } from '@/lib/billing';
import { getDb } from '@/lib/platform/db';
import { requireSessionUser } from '@/lib/accounts';
import { revokeKey } from '@/lib/keys';

/**
 * Dashboard actions. Each one: parse, take the user from the session (never from the form), call one lib function
 * (they check ownership: someone else's id is `not_found`), and redirect back with a flash code saying what happened.
 */
const id = z.string().trim().min(1).max(64);
const subscriptionForm = z.object({ subscriptionId: id });

function back(subscriptionId: string, flash: string): never {
  redirect(`/account/subscriptions/${encodeURIComponent(subscriptionId)}?flash=${encodeURIComponent(flash)}`);
}

export async function changePlanAction(formData: FormData): Promise<void> {
  const parsed = subscriptionForm.extend({ planId: id }).safeParse(Object.fromEntries(formData));
  if (!parsed.success) redirect('/account?flash=not_found');
  const user = await requireSessionUser(`/account/subscriptions/${parsed.data.subscriptionId}`);
  const result = await changePlan(await getDb(), { userId: user.id, ...parsed.data });
  back(parsed.data.subscriptionId, result.ok ? 'plan_changed' : result.code);
}

export async function cancelSubscriptionAction(formData: FormData): Promise<void> {
  const parsed = subscriptionForm.safeParse(Object.fromEntries(formData));
  if (!parsed.success) redirect('/account?flash=not_found');
  const user = await requireSessionUser(`/account/subscriptions/${parsed.data.subscriptionId}`);
  const result = await cancelAtPeriodEnd(await getDb(), { userId: user.id, subscriptionId: parsed.data.subscriptionId });
  back(parsed.data.subscriptionId, result.ok ? 'cancelled' : result.code);
}

export async function resumeSubscriptionAction(formData: FormData): Promise<void> {
  const parsed = subscriptionForm.safeParse(Object.fromEntries(formData));
  if (!parsed.success) redirect('/account?flash=not_found');
  const user = await requireSessionUser(`/account/subscriptions/${parsed.data.subscriptionId}`);
  const result = await resumeRenewal(await getDb(), { userId: user.id, subscriptionId: parsed.data.subscriptionId });
  back(parsed.data.subscriptionId, result.ok ? 'resumed' : result.code);
}

/** A replacement key (the old one keeps working until revoked), revealed once through the handoff. */
export async function createReplacementKeyAction(formData: FormData): Promise<void> {
  const parsed = subscriptionForm.safeParse(Object.fromEntries(formData));
  if (!parsed.success) redirect('/account?flash=not_found');
  const user = await requireSessionUser(`/account/subscriptions/${parsed.data.subscriptionId}`);
  const result = await issueReplacementKeyForReveal(await getDb(), { userId: user.id, subscriptionId: parsed.data.subscriptionId });
  if (!result.ok) back(parsed.data.subscriptionId, result.code);
  redirect(`/account/keys/reveal?handoff=${encodeURIComponent(result.handoffId)}`);
}

export async function revokeKeyAction(formData: FormData): Promise<void> {
  const parsed = z.object({ keyId: id, confirm: z.literal('yes') }).safeParse(Object.fromEntries(formData));
  if (!parsed.success) redirect('/account/keys?flash=not_found');
  const user = await requireSessionUser('/account/keys');
  const result = await revokeKey(await getDb(), { userId: user.id, keyId: parsed.data.keyId });
  redirect(`/account/keys?flash=${result.ok ? 'key_revoked' : result.code}`);
}

export async function openBillingPortalAction(): Promise<void> {
  const user = await requireSessionUser('/account');
  const result = await createBillingPortalUrl(await getDb(), user.id);
  redirect(result.ok ? result.url : `/account?flash=${result.code}`);
}
