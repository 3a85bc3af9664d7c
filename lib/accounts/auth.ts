import type { NextAuthOptions } from 'next-auth';
import { encode } from 'next-auth/jwt';
import CredentialsProvider from 'next-auth/providers/credentials';
import { getDb } from '@/lib/platform/db';
import { baseUrl, isHttpsSite } from '@/lib/platform/base-url';
import { clientAddressFromHeaders } from '@/lib/platform/client-address';
import { getEnv } from '@/lib/platform/env';
import { log } from '@/lib/platform/log';
import { configuredOAuthProviders, isProviderEmailVerified } from './oauth-providers';
import { getServerSecret } from '@/lib/platform/server-secret';
import { endAllSessions, isSessionCurrent, issueSessionVersion } from './session-version';
import { getSignInLimiter } from './sign-in-limiter';
import { processSingleton } from '@/lib/platform/singleton';
import { signInWithOAuth, verifyCredentials, type OAuthSignInResult, type UserView } from './users';

/** Accounts on next-auth v4 with JWT sessions; the sign-in pages' server actions mint the very cookie next-auth reads. */

declare module 'next-auth' {
  interface Session {
    user: { id: string; email: string; name: string | null };
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    sv?: number;
  }
}

class SessionEndedError extends Error {
  constructor() {
    super('the session was ended by signing out');
    this.name = 'SessionEndedError';
  }
}

export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

function useSecureCookies(): boolean {
  return isHttpsSite();
}

/** next-auth's session cookie (name and options match its defaults, so it reads what we write). */
export function sessionCookie(): { name: string; options: { httpOnly: true; sameSite: 'lax'; path: '/'; secure: boolean } } {
  const secure = useSecureCookies();
  return {
    name: `${secure ? '__Secure-' : ''}next-auth.session-token`,
    options: { httpOnly: true, sameSite: 'lax', path: '/', secure },
  };
}

export async function encodeSessionToken(user: UserView): Promise<string> {
  return encode({
    token: { sub: user.id, email: user.email, name: user.name, sv: (await issueSessionVersion(user.id)) ?? 0 },
    secret: getServerSecret(),
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
}

export type PasswordSignInResult =
  { ok: true; user: UserView } | { ok: false; code: 'invalid_credentials' } | { ok: false; code: 'too_many_attempts'; retryAfterSeconds: number };

/** Counted for the account and the address BEFORE the password is checked, so concurrent guesses get no extra checks. */
export async function attemptPasswordSignIn(email: string, password: string, address: string): Promise<PasswordSignInResult> {
  const gate = await getSignInLimiter().admitSignIn(email, address);
  if (!gate.ok) {
    log.warn({ address }, 'sign-in refused: too many attempts');
    return gate;
  }
  const user = await verifyCredentials(await getDb(), email, password);
  return user ? { ok: true, user } : { ok: false, code: 'invalid_credentials' };
}

export function enabledOAuthProviders(): { id: string; name: string }[] {
  return configuredOAuthProviders(getEnv()).map((p) => ({ id: p.id, name: p.name }));
}

/**
 * Why a sign-in ended back on the sign-in page: one closed set for what writes `?error=` and the page that reads it,
 * since next-auth v4 can carry a denial only as this string. `Default` (next-auth's own word) is anything else.
 */
export const SIGN_IN_ERROR_CODES = [
  'CredentialsSignin',
  'TooManyAttempts',
  'OAuthDenied',
  'OAuthProviderError',
  'OAuthEmailMissing',
  'OAuthEmailNotVerified',
  'OAuthAccountUnverified',
  'OAuthCallback',
  'OAuthAccountNotLinked',
  'Callback',
  'Default',
] as const;
export type SignInErrorCode = (typeof SIGN_IN_ERROR_CODES)[number];

export type SignInError = { code: 'TooManyAttempts'; retryAfterSeconds: number } | { code: Exclude<SignInErrorCode, 'TooManyAttempts'> };

export type OAuthFailure = Extract<
  SignInErrorCode,
  'OAuthDenied' | 'OAuthProviderError' | 'OAuthEmailMissing' | 'OAuthEmailNotVerified' | 'OAuthAccountUnverified'
>;

/** The longest wait the sign-in page will state; a larger number did not come from the limiter. */
const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;

/** The `error` value: the code, with the wait in whole seconds after a colon for TooManyAttempts (`TooManyAttempts:840`). */
export function encodeSignInError(error: SignInError): string {
  return error.code === 'TooManyAttempts' ? `${error.code}:${Math.max(1, Math.ceil(error.retryAfterSeconds))}` : error.code;
}

export function parseSignInError(value: string | undefined): SignInError | null {
  if (!value) return null;
  const [code, argument, ...rest] = value.split(':');
  if (rest.length > 0) return { code: 'Default' };
  if (code === 'TooManyAttempts') {
    const seconds = Number(argument);
    const valid = Number.isSafeInteger(seconds) && String(seconds) === argument && seconds >= 1 && seconds <= MAX_RETRY_AFTER_SECONDS;
    return valid ? { code, retryAfterSeconds: seconds } : { code: 'Default' };
  }
  const known = argument === undefined && (SIGN_IN_ERROR_CODES as readonly string[]).includes(code ?? '');
  return known ? { code: code as Exclude<SignInErrorCode, 'TooManyAttempts'> } : { code: 'Default' };
}

export function signInErrorPath(error: SignInError, providerId?: string): string {
  const params = new URLSearchParams({ error: encodeSignInError(error) });
  if (providerId) params.set('provider', providerId);
  return `/signin?${params}`;
}

export function passwordSignInError(result: Extract<PasswordSignInResult, { ok: false }>): SignInError {
  return result.code === 'too_many_attempts' ? { code: 'TooManyAttempts', retryAfterSeconds: result.retryAfterSeconds } : { code: 'CredentialsSignin' };
}

const SIGN_IN_REFUSALS: Record<Extract<OAuthSignInResult, { ok: false }>['code'], OAuthFailure> = {
  email_missing: 'OAuthEmailMissing',
  email_not_verified: 'OAuthEmailNotVerified',
  account_unverified: 'OAuthAccountUnverified',
};

/** A provider's refusal (`?error=` on our callback), which next-auth would report as a broken exchange ("Callback"). */
export function providerRefusalRedirect(url: URL): URL | null {
  const match = /^\/api\/auth\/callback\/([\w-]+)$/.exec(url.pathname);
  const error = url.searchParams.get('error');
  if (!match || !error || !enabledOAuthProviders().some((p) => p.id === match[1])) return null;
  log.info({ provider: match[1], providerError: error.slice(0, 64) }, 'OAuth sign-in refused at the provider');
  return new URL(signInErrorPath({ code: error === 'access_denied' ? 'OAuthDenied' : 'OAuthProviderError' }, match[1]), baseUrl());
}

/** Built on first use: `next build` imports route modules, and the secret must come from the running server's DATA_DIR. */
export function getAuthOptions(): NextAuthOptions {
  return processSingleton('auth-options', buildAuthOptions);
}

function buildAuthOptions(): NextAuthOptions {
  // next-auth v4 reads its public URL only from NEXTAUTH_URL: derived once from the base URL (the one write to process.env).
  process.env.NEXTAUTH_URL ??= baseUrl();
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
          const result = await attemptPasswordSignIn(credentials?.email ?? '', credentials?.password ?? '', clientAddressFromHeaders(req.headers ?? {}));
          if (result.ok) return { id: result.user.id, email: result.user.email, name: result.user.name };
          // A thrown message reaches the page as ?error=… as it is, so the gate's wait travels encoded (parseSignInError).
          const error = passwordSignInError(result);
          if (error.code === 'CredentialsSignin') return null;
          throw new Error(encodeSignInError(error));
        },
      }),
      ...configuredOAuthProviders(getEnv()),
    ],
    // next-auth's own logger writes to the console, outside pino's redaction. Only errors and warnings are passed on:
    // its debug events carry the provider's tokens, so they are never logged.
    logger: {
      error: (code, metadata) =>
        code === 'JWT_SESSION_ERROR' && (metadata as { name?: string } | undefined)?.name === 'SessionEndedError'
          ? log.info('session refused: its user signed out since it was issued')
          : log.error({ code, detail: metadata }, 'next-auth error'),
      warn: (code) => log.warn({ code }, 'next-auth warning'),
      debug: () => undefined,
    },
    // next-auth's own sign-out endpoint ends every session too, like the sign-out button (session.ts, endSession).
    events: {
      async signOut({ token }) {
        if (token?.sub) await endAllSessions(token.sub);
      },
    },
    callbacks: {
      async signIn({ user, account, profile }) {
        if (!account || account.type !== 'oauth') return true;
        let result: OAuthSignInResult;
        try {
          result = await signInWithOAuth(await getDb(), {
            provider: account.provider,
            providerAccountId: account.providerAccountId,
            email: user.email,
            emailVerified: isProviderEmailVerified(profile),
            name: user.name,
            image: user.image,
          });
        } catch (error) {
          // next-auth would put a thrown message into the redirect URL; internals stay in the log instead.
          log.error({ err: error, provider: account.provider }, 'OAuth sign-in failed');
          return signInErrorPath({ code: 'Callback' });
        }
        if (!result.ok) {
          log.info({ provider: account.provider, reason: result.code }, 'OAuth sign-in refused');
          return signInErrorPath({ code: SIGN_IN_REFUSALS[result.code] }, account.provider);
        }
        log.info({ provider: account.provider, userId: result.user.id, outcome: result.outcome }, 'OAuth sign-in');
        // The jwt callback below runs next with this same object: carry our id, not the provider's.
        user.id = result.user.id;
        user.email = result.user.email;
        user.name = result.user.name;
        return true;
      },
      // Also runs on every session read: a token of an older generation is refused, and next-auth clears the cookie.
      async jwt({ token, user }) {
        if (user) {
          token.sub = user.id;
          token.email = user.email;
          token.name = user.name;
          token.sv = (await issueSessionVersion(user.id)) ?? 0;
          return token;
        }
        if (!token.sub || !(await isSessionCurrent(token.sub, token.sv))) throw new SessionEndedError();
        return token;
      },
      async session({ session, token }) {
        session.user = { id: token.sub ?? '', email: token.email ?? '', name: token.name ?? null };
        return session;
      },
    },
  };
}
