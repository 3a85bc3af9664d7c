import { notFound } from 'next/navigation';
import { getDb } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { isEmailVerified } from './recovery';
import { getSessionUser, type SessionUser } from './session';

/** Operators by email (ADMIN_EMAILS); anyone else gets the answer of a missing page: /admin does not announce itself. */
export function isAdmin(user: { email: string } | null | undefined): boolean {
  if (!user) return false;
  return getEnv().ADMIN_EMAILS.includes(user.email.trim().toLowerCase());
}

/** The operator's address must be confirmed too, or whoever signed up first with it would be one. */
export async function requireAdmin(): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user || !isAdmin(user) || !(await isEmailVerified(await getDb(), user.id))) notFound();
  return user;
}
