import { redirect } from 'next/navigation';
import type { z } from 'zod';
import { getDb, type Executor } from '@/lib/platform/db';
import { FORM_TOKEN_FIELD, onceForForm } from '@/lib/platform/form-submissions';
import { formDataOf } from '@/lib/platform/text-input';

// Every server action of the site reads its form through a schema (text checked first, docs/api.md §7.2) and runs a
// state-changing form once per rendering (§7.4).

/** The form's fields through `schema`; a failed parse is the caller's to answer (usually a redirect with a flash). */
export function readForm<T>(formData: FormData, schema: z.ZodType<T>): z.ZodSafeParseResult<T> {
  return schema.safeParse(Object.fromEntries(formDataOf(formData)));
}

function formToken(formData: FormData): string | null {
  const token = formDataOf(formData).get(FORM_TOKEN_FIELD);
  return typeof token === 'string' ? token : null;
}

/** A repeat goes where the first went (after `onRepeat`); a refusal (null `destination`) is not recorded, so it can be resent. */
export async function runOncePerForm<R extends { ok: boolean }>(
  formData: FormData,
  userId: string,
  work: (db: Executor) => Promise<R>,
  destination: (result: R) => string | null,
  options: { db?: Executor; onRepeat?: () => Promise<void> } = {},
): Promise<R> {
  const outcome = await onceForForm(options.db ?? (await getDb()), { userId, token: formToken(formData) }, work, destination);
  if (outcome.repeated) {
    await options.onRepeat?.();
    redirect(outcome.destination);
  }
  return outcome.result;
}
