'use server';

import { headers } from 'next/headers';
import { z } from 'zod';
import { runPreviewQuery, runSubscriberQuery } from '@/lib/gateway';
import { newRequestId } from '@/lib/platform/http';
import { formDataOf, idSchema } from '@/lib/platform/text-input';
import { getSessionUser } from '@/lib/accounts';
import type { TryItState } from '@/components/try-it/try-it-form';
import { previewCostNote, subscriberAnsweredNote, subscriberCostNote } from '@/components/try-it/notes';

const inputSchema = z.object({ kbId: idSchema(), query: z.string() });

/** Both arrive when a sample is clicked: the sample's button wins. */
function readQuestion(formData: FormData) {
  const form = formDataOf(formData);
  const sample = form.get('sample');
  return inputSchema.safeParse({ kbId: form.get('kbId'), query: typeof sample === 'string' && sample.trim() !== '' ? sample : (form.get('query') ?? '') });
}

// "Try it" (docs/api.md §10.6). A subscriber's question takes the gateway's own path, so it counts exactly like an API
// call; the user comes from the session only.
export async function tryItAction(_previous: TryItState, formData: FormData): Promise<TryItState> {
  const parsed = readQuestion(formData);
  if (!parsed.success) return { status: 'error', query: '', code: 'invalid_query', message: 'Type a question first.' };
  const query = parsed.data.query.trim();
  const user = await getSessionUser();
  if (!user) return { status: 'error', query, code: 'unauthorized', message: 'Your session has ended. Sign in again to try this knowledge base.' };
  const result = await runSubscriberQuery({ userId: user.id, kbId: parsed.data.kbId, query, requestId: newRequestId() });
  if (result.ok) {
    const { answer, citations } = result.answer;
    return { status: 'answered', query, answer, citations, costNote: subscriberCostNote(result.usage), answeredNote: subscriberAnsweredNote(result.usage) };
  }
  const upgradeUrl = typeof result.extras.upgrade_url === 'string' ? result.extras.upgrade_url : undefined;
  return { status: 'error', query, code: result.code, message: result.message, upgradeUrl };
}

/** Counted against the client address's daily allowance (lib/gateway/preview.ts), never against a cap. */
export async function previewAction(_previous: TryItState, formData: FormData): Promise<TryItState> {
  const parsed = readQuestion(formData);
  if (!parsed.success) return { status: 'error', query: '', code: 'invalid_query', message: 'Type a question first.' };
  const query = parsed.data.query.trim();
  const result = await runPreviewQuery({ kbId: parsed.data.kbId, query, headers: await headers(), requestId: newRequestId() });
  if (result.ok) {
    const { answer, citations } = result.answer;
    const note = previewCostNote(result.allowance);
    return {
      status: 'answered',
      query,
      answer,
      citations,
      costNote: note,
      answeredNote: `Free preview: ${result.allowance.remaining} of ${result.allowance.limit} questions left today.`,
    };
  }
  return { status: 'error', query, code: result.code, message: result.message, costNote: result.allowance ? previewCostNote(result.allowance) : undefined };
}
