import type { Profile } from 'next-auth';
import GitHubProvider from 'next-auth/providers/github';
import GoogleProvider from 'next-auth/providers/google';
import type { Provider } from 'next-auth/providers/index';
import { z } from 'zod';
import type { Env } from '@/lib/platform/env';

/**
 * The OAuth sign-in providers, each switched on by its client id and secret. Their endpoints come from lib/platform/env.ts
 * (GITHUB_URL, GITHUB_API_URL, GOOGLE_ISSUER) so GitHub Enterprise Server and the local fakes the tests run work
 * with the same code as github.com and accounts.google.com.
 *
 * Every provider hands the sign-in callback a profile carrying `email_verified` (Google's OpenID claim; set here
 * for GitHub): lib/accounts/users.ts links or creates accounts only for a verified email.
 */

// Only what next-auth's GitHub profile mapping reads (id, name or login, avatar); nulls become absent.
const gitHubUserSchema = z.object({
  id: z.number().int(),
  login: z.string(),
  name: z
    .string()
    .nullish()
    .transform((v) => v ?? undefined),
  avatar_url: z
    .string()
    .nullish()
    .transform((v) => v ?? undefined),
});

const gitHubEmailsSchema = z.array(z.looseObject({ email: z.string(), primary: z.boolean(), verified: z.boolean() }));

export type GitHubEmail = z.infer<typeof gitHubEmailsSchema>[number];

/**
 * The address an Almanac account may be keyed to: GitHub's primary email, and whether GitHub verified it. Only the
 * primary counts (not any verified secondary) because it is the one the person chose to be reached at.
 */
export function primaryGitHubEmail(emails: GitHubEmail[]): { email: string | null; emailVerified: boolean } {
  const primary = emails.find((e) => e.primary);
  return primary ? { email: primary.email, emailVerified: primary.verified } : { email: null, emailVerified: false };
}

async function getGitHubJson(url: string, accessToken: string): Promise<unknown> {
  const response = await fetch(url, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/vnd.github+json', 'User-Agent': 'Almanac' },
    signal: AbortSignal.timeout(10_000),
  });
  // The URL and status only: the token is in the request, never in the message.
  if (!response.ok) throw new Error(`GitHub API ${new URL(url).pathname} answered ${response.status}`);
  return response.json();
}

/**
 * GitHub's /user shows the public profile email, which is neither necessarily the primary one nor marked verified;
 * /user/emails (scope user:email) says both, so it is always asked.
 */
async function fetchGitHubProfile(apiUrl: string, accessToken: string): Promise<Profile & { id: number; login: string; email_verified: boolean }> {
  const [user, emails] = await Promise.all([getGitHubJson(`${apiUrl}/user`, accessToken), getGitHubJson(`${apiUrl}/user/emails`, accessToken)]);
  const { email, emailVerified } = primaryGitHubEmail(gitHubEmailsSchema.parse(emails));
  return { ...gitHubUserSchema.parse(user), email: email ?? undefined, email_verified: emailVerified };
}

function gitHubProvider(env: Env, clientId: string, clientSecret: string): Provider {
  return GitHubProvider({
    clientId,
    clientSecret,
    issuer: `${env.GITHUB_URL}/login/oauth`,
    authorization: { url: `${env.GITHUB_URL}/login/oauth/authorize`, params: { scope: 'read:user user:email' } },
    token: `${env.GITHUB_URL}/login/oauth/access_token`,
    userinfo: {
      url: `${env.GITHUB_API_URL}/user`,
      request: ({ tokens }) => fetchGitHubProfile(env.GITHUB_API_URL, tokens.access_token ?? ''),
    },
  });
}

function googleProvider(env: Env, clientId: string, clientSecret: string): Provider {
  // The ID token's claims are the profile; it carries `email_verified` itself.
  return GoogleProvider({ clientId, clientSecret, wellKnown: `${env.GOOGLE_ISSUER}/.well-known/openid-configuration` });
}

/** The providers whose client id and secret are both set, in the order the sign-in page shows them. */
export function configuredOAuthProviders(env: Env): Provider[] {
  const providers: Provider[] = [];
  if (env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET) providers.push(gitHubProvider(env, env.GITHUB_CLIENT_ID, env.GITHUB_CLIENT_SECRET));
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) providers.push(googleProvider(env, env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET));
  return providers;
}

const verifiedClaimSchema = z.object({ email_verified: z.literal(true) });

/** True only when the provider's profile says, as a boolean, that it verified the email. */
export function isProviderEmailVerified(profile: unknown): boolean {
  return verifiedClaimSchema.safeParse(profile).success;
}
