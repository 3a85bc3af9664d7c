'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { runOncePerForm } from '@/lib/site/form-action';
import { publishPaths } from '@/lib/site/paths';
import { withPublishFlash, type PublishFlashCode } from '@/components/publish/flash';
import type { FormState } from '@/components/publish/form-state';
import { requireSessionUser } from '@/lib/accounts';
import {
  createListing,
  deleteDraftListing,
  createPlan,
  createPublisherProfile,
  deletePlan,
  editPlan,
  publishListing,
  retirePlan,
  unpublishListing,
  updateListing,
  updatePublisherProfile,
  type Actor,
  type ListingRefusal,
} from '@/lib/publishing';
import { getDb, type Executor } from '@/lib/platform/db';
import { FORM_TOKEN_FIELD } from '@/lib/platform/form-submissions';
import { formDataOf, idSchema } from '@/lib/platform/text-input';

// The publisher console's actions (docs/api.md §9): the account comes from the session, never the form, and
// lib/publishing makes anything it does not own `not_found`. Creations run once per rendered form.

const id = idSchema();

function fields(formData: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of formDataOf(formData)) if (typeof value === 'string' && key !== FORM_TOKEN_FIELD) out[key] = value;
  return out;
}

/** Never the token: a new submission is a new one. */
function refused(formData: FormData, fieldErrors: Record<string, string>, message?: string): FormState {
  return { fieldErrors, message, values: fields(formData) };
}

async function publisherActor(returnTo: string): Promise<Actor & { kind: 'publisher' }> {
  const user = await requireSessionUser(returnTo);
  return { kind: 'publisher', userId: user.id };
}

function refusalFlash(refusal: ListingRefusal): PublishFlashCode {
  return refusal.reason ?? refusal.code;
}

export async function createProfileAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const actor = await publisherActor(publishPaths.overview);
  const input = fields(formData);
  const result = await runOncePerForm(
    formData,
    actor.userId,
    (db) => createPublisherProfile(db, actor.userId, input),
    (r) => (r.ok ? withPublishFlash(publishPaths.overview, 'profile_created') : null),
  );
  if (result.ok) redirect(withPublishFlash(publishPaths.overview, 'profile_created'));
  if (result.code === 'invalid_input') return refused(formData, result.fieldErrors);
  redirect(publishPaths.overview);
}

export async function updateProfileAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const actor = await publisherActor(publishPaths.profile);
  const result = await updatePublisherProfile(await getDb(), actor.userId, fields(formData));
  if (result.ok) redirect(withPublishFlash(publishPaths.profile, 'profile_saved'));
  if (result.code === 'invalid_input') return refused(formData, result.fieldErrors);
  redirect(publishPaths.overview);
}

export async function createListingAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const actor = await publisherActor(publishPaths.newListing);
  const input = fields(formData);
  const to = (kbId: string) => withPublishFlash(publishPaths.listing(kbId), 'listing_created');
  const result = await runOncePerForm(
    formData,
    actor.userId,
    (db) => createListing(db, actor, input),
    (r) => (r.ok ? to(r.kb.id) : null),
  );
  if (result.ok) redirect(to(result.kb.id));
  if (result.code === 'invalid_input') return refused(formData, result.fieldErrors);
  return refused(formData, {}, result.message);
}

export async function updateListingAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const input = fields(formData);
  const kbId = id.safeParse(input.kbId);
  if (!kbId.success) redirect(withPublishFlash(publishPaths.overview, 'not_found'));
  const actor = await publisherActor(publishPaths.listing(kbId.data));
  const result = await updateListing(await getDb(), actor, kbId.data, input);
  if (result.ok) redirect(withPublishFlash(publishPaths.listing(kbId.data), 'listing_saved'));
  if (result.code === 'invalid_input') return refused(formData, result.fieldErrors);
  redirect(withPublishFlash(publishPaths.overview, 'not_found'));
}

const kbForm = z.object({ kbId: id });

async function onListing<R extends { ok: true } | ListingRefusal | { ok: false; code: 'invalid_input' }>(
  formData: FormData,
  change: (db: Executor, actor: Actor, kbId: string) => Promise<R>,
  success: PublishFlashCode | ((result: Extract<R, { ok: true }>) => PublishFlashCode),
): Promise<never> {
  const parsed = kbForm.safeParse(fields(formData));
  if (!parsed.success) redirect(withPublishFlash(publishPaths.overview, 'not_found'));
  const path = publishPaths.listing(parsed.data.kbId);
  const actor = await publisherActor(path);
  const result = await change(await getDb(), actor, parsed.data.kbId);
  if (result.ok) redirect(withPublishFlash(path, typeof success === 'function' ? success(result as Extract<R, { ok: true }>) : success));
  const refusal = result as ListingRefusal | { ok: false; code: 'invalid_input' };
  if (refusal.code === 'not_found') redirect(withPublishFlash(publishPaths.overview, 'not_found'));
  redirect(withPublishFlash(path, refusal.code === 'invalid_input' ? 'conflict' : refusalFlash(refusal)));
}

export async function publishListingAction(formData: FormData): Promise<void> {
  await onListing(
    formData,
    (db, actor, kbId) => publishListing(db, actor, kbId),
    (r) => (r.resumedSubscriptions ? 'republished_renewing' : 'published'),
  );
}

export async function unpublishListingAction(formData: FormData): Promise<void> {
  await onListing(formData, (db, actor, kbId) => unpublishListing(db, actor, kbId), 'unpublished');
}

export async function deleteDraftListingAction(formData: FormData): Promise<void> {
  const parsed = kbForm.safeParse(fields(formData));
  if (!parsed.success) redirect(withPublishFlash(publishPaths.overview, 'not_found'));
  const path = publishPaths.listing(parsed.data.kbId);
  const actor = await publisherActor(path);
  const result = await deleteDraftListing(await getDb(), actor, parsed.data.kbId);
  if (result.ok) redirect(withPublishFlash(publishPaths.overview, 'listing_deleted'));
  if (result.code === 'not_found') redirect(withPublishFlash(publishPaths.overview, 'not_found'));
  redirect(withPublishFlash(path, refusalFlash(result)));
}

export async function createPlanAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const input = fields(formData);
  const kbId = id.safeParse(input.kbId);
  if (!kbId.success) redirect(withPublishFlash(publishPaths.overview, 'not_found'));
  const path = publishPaths.plans(kbId.data);
  const actor = await publisherActor(path);
  const result = await runOncePerForm(
    formData,
    actor.userId,
    (db) => createPlan(db, actor, kbId.data, input),
    (r) => (r.ok ? withPublishFlash(path, 'plan_created') : null),
  );
  if (result.ok) redirect(withPublishFlash(path, 'plan_created'));
  if (result.code === 'invalid_input') return refused(formData, result.fieldErrors);
  if (result.code === 'not_found') redirect(withPublishFlash(publishPaths.overview, 'not_found'));
  return refused(formData, {}, result.message);
}

export async function editPlanAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const input = fields(formData);
  const parsed = z.object({ kbId: id, planId: id }).safeParse(input);
  if (!parsed.success) redirect(withPublishFlash(publishPaths.overview, 'not_found'));
  const path = publishPaths.plans(parsed.data.kbId);
  const actor = await publisherActor(path);
  const result = await editPlan(await getDb(), actor, parsed.data.planId, input);
  if (result.ok) redirect(withPublishFlash(path, result.replaced ? 'plan_replaced' : 'plan_saved'));
  if (result.code === 'invalid_input') return refused(formData, result.fieldErrors);
  if (result.code === 'not_found') redirect(withPublishFlash(publishPaths.overview, 'not_found'));
  return refused(formData, {}, result.message);
}

async function onPlan(
  formData: FormData,
  change: (db: Executor, actor: Actor, planId: string) => Promise<{ ok: true } | ListingRefusal | { ok: false; code: 'invalid_input' }>,
  success: PublishFlashCode,
): Promise<never> {
  const parsed = z.object({ kbId: id, planId: id }).safeParse(fields(formData));
  if (!parsed.success) redirect(withPublishFlash(publishPaths.overview, 'not_found'));
  const path = publishPaths.plans(parsed.data.kbId);
  const actor = await publisherActor(path);
  const result = await change(await getDb(), actor, parsed.data.planId);
  if (result.ok) redirect(withPublishFlash(path, success));
  if (result.code === 'not_found') redirect(withPublishFlash(publishPaths.overview, 'not_found'));
  redirect(withPublishFlash(path, result.code === 'invalid_input' ? 'conflict' : refusalFlash(result)));
}

export async function retirePlanAction(formData: FormData): Promise<void> {
  await onPlan(formData, retirePlan, 'plan_retired');
}

export async function deletePlanAction(formData: FormData): Promise<void> {
  await onPlan(formData, deletePlan, 'plan_deleted');
}
