import { notFound } from 'next/navigation';
import { getDb } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { isEmailVerified } from './recovery';
import { getSessionUser, type SessionUser } from './session';

/**
 * Operators are named by email in ADMIN_EMAILS (lib/platform/env.ts), compared case-insensitively. A signed-out visitor
 * and a signed-in non-operator get the same answer as a missing page: /admin does not announce itself.
 */
export function isAdmin(user: { email: string } | null | undefined): boolean {
  if (!user) return false;
  return getEnv().ADMIN_EMAILS.includes(user.email.trim().toLowerCase());
}

/**
 * For operator pages and server actions: the signed-in operator, or Next's not-found answer. The account's address must
 * be confirmed too (docs/api.md §11.3): otherwise whoever signed up first with an operator's address would be one.
 */
export async function requireAdmin(): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user || !isAdmin(user) || !(await isEmailVerified(await getDb(), user.id))) notFound();
  return user;
}
