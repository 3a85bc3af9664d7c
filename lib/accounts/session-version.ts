import { eq, sql } from 'drizzle-orm';
import { users } from '@/db/schema';
import { getDb, type Executor } from '@/lib/platform/db';
import { processSingleton } from '@/lib/platform/singleton';

/**
 * Sessions are JWT cookies (next-auth v4, no sessions table), so a copied cookie would work until it expires, 30 days
 * after its last use, whatever its owner did. Each user therefore has a session generation (`users.session_version`):
 * every session token carries the generation current when it was issued (`sv`), and a token whose generation is no
 * longer current is refused when the session is read (the jwt callback in auth.ts). Signing out bumps it, which ends
 * EVERY session of the user, on every device ("sign out everywhere"): the simplest rule that makes sign-out mean it,
 * and the one a person who suspects a copied cookie needs.
 *
 * Reading the session must stay cheap (every signed-in page reads it), so the generation is cached per process for
 * VERSION_CACHE_MS. The bound: a sign-out takes effect at once on the instance that handled it, and within
 * VERSION_CACHE_MS (5 s) on every other instance. Signing in reads the database, never the cache, so a new session
 * is never born with a stale generation.
 */
export const VERSION_CACHE_MS = 5_000;
const MAX_CACHED_USERS = 10_000;

interface Cached {
  version: number | null;
  readAt: number;
}

const cache = () => processSingleton('session-versions', () => new Map<string, Cached>());

function remember(userId: string, version: number | null): void {
  const entries = cache();
  if (entries.size >= MAX_CACHED_USERS) entries.clear();
  entries.set(userId, { version, readAt: Date.now() });
}

async function readVersion(userId: string): Promise<number | null> {
  const [row] = await (await getDb()).select({ version: users.sessionVersion }).from(users).where(eq(users.id, userId)).limit(1);
  const version = row ? row.version : null;
  remember(userId, version);
  return version;
}

/** The user's current session generation, from the database (sign-in: a new token must carry the real value). */
export function issueSessionVersion(userId: string): Promise<number | null> {
  return readVersion(userId);
}

/** Whether a token of generation `version` (absent in tokens issued before generations existed: 0) is still valid. */
export async function isSessionCurrent(userId: string, version: number | undefined): Promise<boolean> {
  const cached = cache().get(userId);
  const current = cached && Date.now() - cached.readAt < VERSION_CACHE_MS ? cached.version : await readVersion(userId);
  return current !== null && current === (version ?? 0);
}

/**
 * Ends every session of the user (sign-out): the generation moves on, and every token issued so far is refused. In a
 * caller's transaction (`tx`: "Sign out everywhere" runs once per form, lib/platform/form-submissions.ts) the new
 * generation is not committed yet, so it is not cached: the caller calls forgetSessionVersion after the commit.
 */
export async function endAllSessions(userId: string, tx?: Executor): Promise<void> {
  const [row] = await (tx ?? (await getDb()))
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId))
    .returning({ version: users.sessionVersion });
  if (tx) forgetSessionVersion(userId);
  else remember(userId, row ? row.version : null);
}

/**
 * After a transaction that bumped `users.session_version` itself (a password reset or change commits the new password
 * and the end of every session together): this process stops trusting its cached generation at once.
 */
export function forgetSessionVersion(userId: string): void {
  cache().delete(userId);
}
