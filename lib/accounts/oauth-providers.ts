import type { Profile } from 'next-auth';
import GitHubProvider from 'next-auth/providers/github';
import GoogleProvider from 'next-auth/providers/google';
import type { Provider } from 'next-auth/providers/index';
import { z } from 'zod';
import type { Env } from '@/lib/platform/env';

/** OAuth sign-in providers, each on when its client id and secret are set; every profile carries `email_verified`. */

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

/** Only the primary email counts, not any verified secondary: it is the one the person chose to be reached at. */
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

/** /user's email is neither necessarily primary nor marked verified; /user/emails says both, so it is always asked. */
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

export function configuredOAuthProviders(env: Env): Provider[] {
  const providers: Provider[] = [];
  if (env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET) providers.push(gitHubProvider(env, env.GITHUB_CLIENT_ID, env.GITHUB_CLIENT_SECRET));
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) providers.push(googleProvider(env, env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET));
  return providers;
}

const verifiedClaimSchema = z.object({ email_verified: z.literal(true) });

export function isProviderEmailVerified(profile: unknown): boolean {
  return verifiedClaimSchema.safeParse(profile).success;
}
