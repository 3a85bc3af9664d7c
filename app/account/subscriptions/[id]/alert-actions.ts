'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { requireSessionUser } from '@/lib/accounts';
import { getDb } from '@/lib/platform/db';
import { idSchema } from '@/lib/platform/text-input';
import type { AlertWebhookFormState } from '@/components/account/alert-webhook-form';
import { removeAlertWebhook, saveAlertWebhook, sendTestAlertWebhook } from '@/lib/alerts';
import { readForm } from '@/lib/site/form-action';
import { accountPaths } from '@/lib/site/paths';

/** The usage-alert webhook of one subscription (docs/api.md §11.4): set or replace, remove, send a test event. */
const form = z.object({ subscriptionId: idSchema(), url: z.string().max(2_000).optional().default('') });

async function parse(formData: FormData) {
  const parsed = readForm(formData, form);
  if (!parsed.success) redirect('/account');
  const user = await requireSessionUser(accountPaths.subscription(parsed.data.subscriptionId));
  return { user, ...parsed.data };
}

export async function saveAlertWebhookAction(_previous: AlertWebhookFormState, formData: FormData): Promise<AlertWebhookFormState> {
  const { user, subscriptionId, url } = await parse(formData);
  const result = await saveAlertWebhook(await getDb(), { userId: user.id, subscriptionId, url });
  if (!result.ok) return { error: result.message, url };
  // The page shows the webhook now in place ("Sending to …", test and remove); the secret shows while it is that one.
  revalidatePath(accountPaths.subscription(subscriptionId));
  return { secret: result.secret, savedUrl: result.url };
}

export async function sendTestAlertAction(_previous: AlertWebhookFormState, formData: FormData): Promise<AlertWebhookFormState> {
  const { user, subscriptionId } = await parse(formData);
  const result = await sendTestAlertWebhook(await getDb(), { userId: user.id, subscriptionId });
  if (result.ok) return { tested: { ok: true, text: `Test event delivered: your endpoint answered HTTP ${result.status}.` } };
  if (result.reason === 'no_webhook') return { tested: { ok: false, text: 'Set a webhook URL first.' } };
  return { tested: { ok: false, text: `Test event not delivered: ${result.reason}.` } };
}

export async function removeAlertWebhookAction(formData: FormData): Promise<void> {
  const { user, subscriptionId } = await parse(formData);
  await removeAlertWebhook(await getDb(), { userId: user.id, subscriptionId });
  redirect(`${accountPaths.subscription(subscriptionId)}?alerts=removed#alerts-heading`);
}
