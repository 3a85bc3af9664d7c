import type { NextAuthOptions } from 'next-auth';
import { encode } from 'next-auth/jwt';
import CredentialsProvider from 'next-auth/providers/credentials';
import GitHubProvider from 'next-auth/providers/github';
import GoogleProvider from 'next-auth/providers/google';
import type { Provider } from 'next-auth/providers/index';
import { getDb } from './db';
import { getEnv } from './env';
import { log } from './log';
import { getServerSecret } from './server-secret';
import { getSignInLimiter } from './sign-in-limiter';
import { processSingleton } from './singleton';
import { upsertOAuthUser, verifyCredentials, type UserView } from './users';

/**
 * Accounts: next-auth v4 with JWT sessions (no sessions table). The sign-in and sign-up pages use server
 * actions (they work without JavaScript and show errors next to the fields); they mint the very same session
 * cookie next-auth reads, so `getServerSession`, `/api/auth/session` and the OAuth providers share one session.
 */

declare module 'next-auth' {
  interface Session {
    user: { id: string; email: string; name: string | null };
  }
}

export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

function useSecureCookies(): boolean {
  return getEnv().APP_URL.startsWith('https://');
}

/** next-auth's session cookie (name and options match its defaults, so it reads what we write). */
export function sessionCookie(): { name: string; options: { httpOnly: true; sameSite: 'lax'; path: '/'; secure: boolean } } {
  const secure = useSecureCookies();
  return {
    name: `${secure ? '__Secure-' : ''}next-auth.session-token`,
    options: { httpOnly: true, sameSite: 'lax', path: '/', secure },
  };
}

/** The encrypted JWT next-auth expects in its session cookie. */
export async function encodeSessionToken(user: UserView): Promise<string> {
  return encode({
    token: { sub: user.id, email: user.email, name: user.name },
    secret: getServerSecret(),
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
}

export type PasswordSignInResult =
  | { ok: true; user: UserView }
  | { ok: false; code: 'invalid_credentials' }
  | { ok: false; code: 'too_many_attempts'; retryAfterSeconds: number };

/** Email + password check behind the brute-force gate; every failure counts against the email and the address. */
export async function attemptPasswordSignIn(email: string, password: string, ip: string): Promise<PasswordSignInResult> {
  const limiter = getSignInLimiter();
  const gate = await limiter.check(email, ip);
  if (!gate.ok) {
    log.warn({ ip }, 'sign-in refused: too many failed attempts');
    return gate;
  }
  const user = await verifyCredentials(await getDb(), email, password);
  if (!user) {
    await limiter.recordFailure(email, ip);
    return { ok: false, code: 'invalid_credentials' };
  }
  return { ok: true, user };
}

/** The client address as the proxy in front of Next reports it (first hop of X-Forwarded-For). */
export function clientIpFrom(headers: { get(name: string): string | null } | Record<string, string | string[] | undefined>): string {
  const read = (name: string): string | undefined => {
    if (typeof (headers as { get?: unknown }).get === 'function') return (headers as { get(n: string): string | null }).get(name) ?? undefined;
    const v = (headers as Record<string, string | string[] | undefined>)[name];
    return Array.isArray(v) ? v[0] : v;
  };
  return read('x-forwarded-for')?.split(',')[0]?.trim() || read('x-real-ip')?.trim() || 'unknown';
}

function oauthProviders(): Provider[] {
  const env = getEnv();
  const providers: Provider[] = [];
  if (env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET) {
    providers.push(GitHubProvider({ clientId: env.GITHUB_CLIENT_ID, clientSecret: env.GITHUB_CLIENT_SECRET }));
  }
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    providers.push(GoogleProvider({ clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET }));
  }
  return providers;
}

/** OAuth providers switched on by their environment variables, for the sign-in page's buttons. */
export function enabledOAuthProviders(): { id: string; name: string }[] {
  return oauthProviders().map((p) => ({ id: p.id, name: p.name }));
}

/**
 * Built on first use, not at import: `next build` imports route modules, and the server secret must come from
 * the running server's DATA_DIR, not the build machine's.
 */
export function getAuthOptions(): NextAuthOptions {
  return processSingleton('auth-options', buildAuthOptions);
}

function buildAuthOptions(): NextAuthOptions {
  // next-auth v4 reads its own public URL from NEXTAUTH_URL and nothing else (it would assume localhost:3000).
  // Derive it once from APP_URL so operators configure a single variable; this is the one write to process.env.
  process.env.NEXTAUTH_URL ??= getEnv().APP_URL;
  return {
  secret: getServerSecret(),
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: '/signin', error: '/signin' },
  providers: [
    CredentialsProvider({
      id: 'credentials',
      name: 'Email and password',
      credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
      async authorize(credentials, req) {
        const result = await attemptPasswordSignIn(credentials?.email ?? '', credentials?.password ?? '', clientIpFrom(req.headers ?? {}));
        if (result.ok) return { id: result.user.id, email: result.user.email, name: result.user.name };
        // next-auth passes a thrown message to the error page as ?error=…; the sign-in page explains it.
        if (result.code === 'too_many_attempts') throw new Error(`TooManyAttempts:${result.retryAfterSeconds}`);
        return null;
      },
    }),
    ...oauthProviders(),
  ],
  callbacks: {
    async signIn({ user, account }) {
      if (!account || account.type !== 'oauth') return true;
      if (!user.email) return '/signin?error=OAuthEmailMissing';
      const local = await upsertOAuthUser(await getDb(), {
        provider: account.provider,
        providerAccountId: account.providerAccountId,
        email: user.email,
        name: user.name,
        image: user.image,
      });
      // The jwt callback below runs next with this same object: carry our id, not the provider's.
      user.id = local.id;
      user.email = local.email;
      return true;
    },
    async jwt({ token, user }) {
      if (user) {
        token.sub = user.id;
        token.email = user.email;
        token.name = user.name;
      }
      return token;
    },
    async session({ session, token }) {
      session.user = { id: token.sub ?? '', email: token.email ?? '', name: token.name ?? null };
      return session;
    },
  },
};
}
