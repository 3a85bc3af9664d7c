import { eq, sql } from 'drizzle-orm';
import { users } from '@/db/schema';
import { getDb, type Executor } from '@/lib/platform/db';
import { processSingleton } from '@/lib/platform/singleton';

/**
 * JWT sessions have no table, so a copied cookie would live 30 days whatever its owner did: each token carries the
 * user's session generation (`sv`), and signing out moves it on, ending EVERY session of the user. It is cached per
 * process for VERSION_CACHE_MS, so other instances see a sign-out within 5 s; signing in reads the database.
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

/** A token without `sv` counts as generation 0. */
export async function isSessionCurrent(userId: string, version: number | undefined): Promise<boolean> {
  const cached = cache().get(userId);
  const current = cached && Date.now() - cached.readAt < VERSION_CACHE_MS ? cached.version : await readVersion(userId);
  return current !== null && current === (version ?? 0);
}

/** In a caller's transaction the new generation is not committed yet, so not cached: call forgetSessionVersion after. */
export async function endAllSessions(userId: string, tx?: Executor): Promise<void> {
  const [row] = await (tx ?? (await getDb()))
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId))
    .returning({ version: users.sessionVersion });
  if (tx) forgetSessionVersion(userId);
  else remember(userId, row ? row.version : null);
}

/** After a transaction that bumped `users.session_version` itself: stop trusting the cached generation at once. */
export function forgetSessionVersion(userId: string): void {
  cache().delete(userId);
}
