import { notFound } from 'next/navigation';
import { getEnv } from '@/lib/platform/env';
import { getSessionUser, type SessionUser } from './session';

/**
 * Operators are named by email in ADMIN_EMAILS (lib/platform/env.ts), compared case-insensitively. A signed-out visitor
 * and a signed-in non-operator get the same answer as a missing page: /admin does not announce itself.
 */
export function isAdmin(user: { email: string } | null | undefined): boolean {
  if (!user) return false;
  return getEnv().ADMIN_EMAILS.includes(user.email.trim().toLowerCase());
}

/** For operator pages and server actions: the signed-in operator, or Next's not-found answer. */
export async function requireAdmin(): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user || !isAdmin(user)) notFound();
  return user;
}
