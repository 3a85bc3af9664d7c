import { and, eq, lt } from 'drizzle-orm';
import { formSubmissions } from '@/db/schema';
import type { Executor } from './db';
import { randomBase62 } from './ids';
import { inTransaction } from './transactions';
import { PeriodicTask } from './periodic-task';
import { processSingleton } from './singleton';

/**
 * One effect per form submission (docs/api.md §7.4): the action's work and where it led are recorded under (user,
 * token) in one transaction, so a second submission of the form (a double click, a retry) waits for the first on the
 * primary key and is sent where the first went (the same one-time key reveal, say) instead of working again.
 */
export const FORM_TOKEN_FIELD = 'formToken';

export function newFormToken(): string {
  return randomBase62(22);
}

const TOKEN = /^[0-9A-Za-z]{16,64}$/;

export async function onceForForm<R extends { ok: boolean }>(
  db: Executor,
  submission: { userId: string; token: string | null | undefined },
  work: (tx: Executor) => Promise<R>,
  /** Where a successful result leads; a refusal is not recorded, so the form can be sent again. */
  destination: (result: R) => string | null,
): Promise<{ result: R; repeated: false } | { repeated: true; destination: string }> {
  const token = submission.token && TOKEN.test(submission.token) ? submission.token : null;
  // Without a valid token (an old page, a hand-made request) the form simply runs once more.
  if (!token) return { result: await work(db), repeated: false };
  const earlier = await findDestination(db, submission.userId, token);
  if (earlier) return { repeated: true, destination: earlier };
  try {
    return await inTransaction(db, async (tx) => {
      const result = await work(tx);
      const to = destination(result);
      // Refused, perhaps because a concurrent first submission did the work: once that one has committed, go where it went.
      if (!to && (await findDestination(tx, submission.userId, token))) throw new RepeatedSubmission();
      if (to) {
        // Waits for a concurrent first submission's commit; then nothing is inserted, and this one rolls back.
        const inserted = await tx
          .insert(formSubmissions)
          .values({ userId: submission.userId, token, result: to })
          .onConflictDoNothing()
          .returning({ token: formSubmissions.token });
        if (inserted.length === 0) throw new RepeatedSubmission();
      }
      return { result, repeated: false as const };
    });
  } catch (error) {
    if (!(error instanceof RepeatedSubmission)) throw error;
    const first = await findDestination(db, submission.userId, token);
    if (!first) throw error;
    return { repeated: true, destination: first };
  }
}

class RepeatedSubmission extends Error {}

async function findDestination(db: Executor, userId: string, token: string): Promise<string | null> {
  const [row] = await db
    .select({ result: formSubmissions.result })
    .from(formSubmissions)
    .where(and(eq(formSubmissions.userId, userId), eq(formSubmissions.token, token)));
  return row?.result ?? null;
}

/** Tokens older than a day are of no use (a page that old submits as new). */
export async function purgeOldFormSubmissions(db: Executor, now = new Date()): Promise<number> {
  const rows = await db
    .delete(formSubmissions)
    .where(lt(formSubmissions.createdAt, new Date(now.getTime() - 86_400_000)))
    .returning({ token: formSubmissions.token });
  return rows.length;
}

/** Purges day-old tokens every hour in every instance (a delete of old rows is safe to race). */
export function startFormSubmissionPurge(): PeriodicTask {
  return processSingleton('form-submission-purge', () =>
    new PeriodicTask('form-submission-purge', async (db, now) => void (await purgeOldFormSubmissions(db, now)), 3_600_000).start(),
  );
}
