'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { withPublishFlash } from '@/components/publish/flash';
import type { FormState } from '@/components/publish/form-state';
import { publishPaths } from '@/lib/site/paths';
import { requireSessionUser } from '@/lib/accounts';
import { getDb } from '@/lib/platform/db';
import { formDataOf, idSchema } from '@/lib/platform/text-input';
import { saveHttpBackend, switchToHostedBackend } from '@/lib/routing';

const backendForm = z.object({
  kbId: idSchema(),
  endpointUrl: z.string().trim().min(1, 'Enter the endpoint URL.').max(2_000),
  infraKey: z.string().max(1_000).optional(),
  signingSecret: z.string().max(1_000).optional(),
  timeoutMs: z.coerce.number().int().min(100, 'At least 100 ms.').max(120_000, 'At most 120000 ms.').optional(),
});

// The content page's actions (docs/api.md §9.5). Secrets are write-only: blank fields keep the stored ones.
export async function saveBackendAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const raw = Object.fromEntries(formDataOf(formData));
  const typed = (name: string) => (typeof raw[name] === 'string' ? (raw[name] as string) : '');
  const parsed = backendForm.safeParse({ ...raw, timeoutMs: raw.timeoutMs === '' ? undefined : raw.timeoutMs });
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return { fieldErrors, values: { endpointUrl: typed('endpointUrl'), timeoutMs: typed('timeoutMs') } };
  }
  const path = publishPaths.content(parsed.data.kbId);
  const user = await requireSessionUser(path);
  const result = await saveHttpBackend(await getDb(), user.id, parsed.data);
  if (result.ok) redirect(withPublishFlash(path, 'backend_saved'));
  if (result.code === 'not_found' || result.code === 'knowledge_base_not_found') redirect(publishPaths.overview);
  // The secrets never travel back: the form keeps them in the browser.
  const values = { endpointUrl: parsed.data.endpointUrl, timeoutMs: typed('timeoutMs') };
  if ('fieldErrors' in result && result.fieldErrors) return { fieldErrors: result.fieldErrors, values };
  return { fieldErrors: {}, message: result.message, values };
}

export async function switchToHostedAction(formData: FormData): Promise<void> {
  const kbId = idSchema().safeParse(formDataOf(formData).get('kbId'));
  if (!kbId.success) redirect(publishPaths.overview);
  const path = publishPaths.content(kbId.data);
  const user = await requireSessionUser(path);
  const result = await switchToHostedBackend(await getDb(), user.id, kbId.data);
  redirect(result.ok ? withPublishFlash(path, 'backend_hosted') : publishPaths.overview);
}
