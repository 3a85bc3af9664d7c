'use server';

import { z } from 'zod';
import { runSubscriberQuery } from '@/lib/gateway';
import { newRequestId } from '@/lib/platform/http';
import { formDataOf, idSchema } from '@/lib/platform/text-input';
import { getSessionUser } from '@/lib/accounts';
import type { TryItState } from '@/components/try-it/try-it-form';

const inputSchema = z.object({ kbId: idSchema(), query: z.string() });

/**
 * "Try it" on the knowledge-base page, which hands this action to the form in components/try-it/ as a prop: the
 * signed-in subscriber's question goes through the gateway's own path (rate limit, cap reservation, routing,
 * metering), so it counts against the cap exactly like an API call. The user comes from the session only.
 */
export async function tryItAction(_previous: TryItState, formData: FormData): Promise<TryItState> {
  const form = formDataOf(formData);
  const parsed = inputSchema.safeParse({ kbId: form.get('kbId'), query: form.get('query') ?? '' });
  if (!parsed.success) return { status: 'error', query: '', code: 'invalid_query', message: 'Type a question first.' };
  const query = parsed.data.query.trim();
  const user = await getSessionUser();
  if (!user) return { status: 'error', query, code: 'unauthorized', message: 'Your session has ended. Sign in again to try this knowledge base.' };
  const result = await runSubscriberQuery({ userId: user.id, kbId: parsed.data.kbId, query, requestId: newRequestId() });
  if (result.ok) {
    return { status: 'answered', query, answer: result.answer.answer, citations: result.answer.citations, usage: result.usage };
  }
  const upgradeUrl = typeof result.extras.upgrade_url === 'string' ? result.extras.upgrade_url : undefined;
  return { status: 'error', query, code: result.code, message: result.message, upgradeUrl };
}
