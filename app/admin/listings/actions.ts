'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { withPublishFlash } from '@/components/publish/flash';
import { requireAdmin } from '@/lib/accounts';
import { restoreListing, restorePublisher, suspendListing, suspendPublisher, type OperatorActor } from '@/lib/publishing';
import { getDb } from '@/lib/platform/db';
import { readForm } from '@/lib/site/form-action';
import { idSchema, textSchema } from '@/lib/platform/text-input';

// The operator's suspend and restore (docs/api.md §9.1): requireAdmin answers anyone else with the 404 page.
const form = z.object({
  target: z.enum(['listing', 'publisher']),
  id: idSchema(),
  reason: textSchema(500).default(''),
});

const PATH = '/admin/listings';

async function moderate(formData: FormData, verb: 'suspend' | 'restore'): Promise<never> {
  const operator = await requireAdmin();
  const parsed = readForm(formData, form);
  if (!parsed.success) redirect(withPublishFlash(PATH, 'not_found'));
  const { target, id, reason } = parsed.data;
  const actor: OperatorActor = { kind: 'operator', userId: operator.id, via: 'web' };
  const db = await getDb();
  const result =
    target === 'listing'
      ? verb === 'suspend'
        ? await suspendListing(db, actor, id, reason)
        : await restoreListing(db, actor, id, reason)
      : verb === 'suspend'
        ? await suspendPublisher(db, actor, id, reason)
        : await restorePublisher(db, actor, id, reason);
  if (result.ok) redirect(withPublishFlash(PATH, verb === 'suspend' ? 'suspended' : 'restored'));
  redirect(withPublishFlash(PATH, result.code === 'not_found' ? 'not_found' : target === 'publisher' ? 'publisher_closed' : 'restore_publisher_first'));
}

export async function suspendAction(formData: FormData): Promise<void> {
  await moderate(formData, 'suspend');
}

export async function restoreAction(formData: FormData): Promise<void> {
  await moderate(formData, 'restore');
}
