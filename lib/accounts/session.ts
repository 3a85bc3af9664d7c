import { getServerSession } from 'next-auth';
import { cookies } from 'next/headers';
import { redirect, unstable_rethrow } from 'next/navigation';
import { encodeSessionToken, getAuthOptions, SESSION_MAX_AGE_SECONDS, sessionCookie } from './auth';
import { baseUrl } from '@/lib/platform/base-url';
import { log } from '@/lib/platform/log';
import { endAllSessions } from './session-version';
import type { UserView } from './users';

/** The request's signed-in user, starting and ending sessions, and the one safe return path after signing in. */

export type SessionUser = UserView;

export async function getSessionUser(): Promise<SessionUser | null> {
  // A broken or foreign cookie must not take every page down with it: the visitor is simply signed out.
  const session = await getServerSession(getAuthOptions()).catch((error: unknown) => {
    // Next's own signals (a page found to be dynamic while prerendering, redirects) are not broken cookies.
    unstable_rethrow(error);
    log.warn({ err: error }, 'session could not be read; treating the request as signed out');
    return null;
  });
  const user = session?.user;
  if (!user?.id || !user.email) return null;
  return { id: user.id, email: user.email, name: user.name ?? null };
}

/** C0 controls, DEL and the C1 controls: never part of a path a person meant, and the URL parser drops some of them. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A path on this site to return to after signing in, or `fallback`: no open redirect. The value is parsed against the
 * site's origin as a browser reads it (tabs dropped, `\` as `/`, dot segments resolved), and only the parsed path of a
 * same-origin URL that does not start with `//` is returned.
 */
export function safeReturnPath(value: unknown, fallback = '/account'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || CONTROL_CHARACTER.test(value)) return fallback;
  const origin = baseUrl();
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== origin) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') ? path : fallback;
}

export async function requireSessionUser(returnTo: string): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(safeReturnPath(returnTo, '/'))}`);
  return user;
}

export async function startSession(user: UserView): Promise<void> {
  const { name, options } = sessionCookie();
  (await cookies()).set(name, await encodeSessionToken(user), { ...options, maxAge: SESSION_MAX_AGE_SECONDS });
}

/** Ends every session of the user (a copied cookie too), then removes this browser's cookie. */
export async function endSession(): Promise<void> {
  const user = await getSessionUser();
  if (user) await endAllSessions(user.id);
  const jar = await cookies();
  const { name, options } = sessionCookie();
  jar.set(name, '', { ...options, maxAge: 0 });
}
