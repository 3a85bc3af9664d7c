import type { OAuthConfig } from 'next-auth/providers/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGitHub, type FakeGitHub, type FakeGitHubAccount } from '@/test/support/fake-github';
import { envSchema, type Env } from '@/lib/platform/env';
import { configuredOAuthProviders, isProviderEmailVerified, primaryGitHubEmail } from './oauth-providers';

const envWith = (vars: Record<string, string>): Env => envSchema.parse(vars);

describe('primaryGitHubEmail', () => {
  it.each([
    ['primary and verified', [{ email: 'a@x.test', primary: true, verified: true }], { email: 'a@x.test', emailVerified: true }],
    ['primary unverified', [{ email: 'a@x.test', primary: true, verified: false }], { email: 'a@x.test', emailVerified: false }],
    [
      'a verified secondary does not stand in for an unverified primary',
      [
        { email: 'other@x.test', primary: false, verified: true },
        { email: 'a@x.test', primary: true, verified: false },
      ],
      { email: 'a@x.test', emailVerified: false },
    ],
    ['no primary', [{ email: 'a@x.test', primary: false, verified: true }], { email: null, emailVerified: false }],
    ['no emails', [], { email: null, emailVerified: false }],
  ])('%s', (_name, emails, expected) => expect(primaryGitHubEmail(emails)).toEqual(expected));
});

describe('isProviderEmailVerified', () => {
  it.each([
    [{ email_verified: true }, true],
    [{ email_verified: false }, false],
    [{ email_verified: 'true' }, false],
    [{ email: 'a@x.test' }, false],
    [undefined, false],
    [null, false],
  ])('%j → %s', (profile, expected) => expect(isProviderEmailVerified(profile)).toBe(expected));
});

describe('configuredOAuthProviders', () => {
  it('switches a provider on only when both its id and secret are set', () => {
    expect(configuredOAuthProviders(envWith({}))).toEqual([]);
    expect(configuredOAuthProviders(envWith({ GITHUB_CLIENT_ID: 'id' }))).toEqual([]);
    expect(configuredOAuthProviders(envWith({ GOOGLE_CLIENT_SECRET: 'secret' }))).toEqual([]);
    const both = configuredOAuthProviders(envWith({ GITHUB_CLIENT_ID: 'a', GITHUB_CLIENT_SECRET: 'b', GOOGLE_CLIENT_ID: 'c', GOOGLE_CLIENT_SECRET: 'd' }));
    expect(both.map((p) => p.id)).toEqual(['github', 'google']);
  });

  it('points at github.com and accounts.google.com by default, and at the configured hosts otherwise', () => {
    const options = (env: Env) => configuredOAuthProviders(env).map((p) => (p as OAuthConfig<unknown>).options as Record<string, unknown>);
    const keys = { GITHUB_CLIENT_ID: 'a', GITHUB_CLIENT_SECRET: 'b', GOOGLE_CLIENT_ID: 'c', GOOGLE_CLIENT_SECRET: 'd' };
    const [gitHub, google] = options(envWith(keys));
    expect(gitHub).toMatchObject({
      authorization: { url: 'https://github.com/login/oauth/authorize' },
      token: 'https://github.com/login/oauth/access_token',
      userinfo: { url: 'https://api.github.com/user' },
    });
    expect(google).toMatchObject({ wellKnown: 'https://accounts.google.com/.well-known/openid-configuration' });

    const [ghe, fakeGoogle] = options(
      envWith({ ...keys, GITHUB_URL: 'https://git.corp.test/', GITHUB_API_URL: 'https://git.corp.test/api/v3', GOOGLE_ISSUER: 'http://127.0.0.1:9' }),
    );
    expect(ghe).toMatchObject({
      issuer: 'https://git.corp.test/login/oauth',
      authorization: { url: 'https://git.corp.test/login/oauth/authorize' },
      token: 'https://git.corp.test/login/oauth/access_token',
      userinfo: { url: 'https://git.corp.test/api/v3/user' },
    });
    expect(fakeGoogle).toMatchObject({ wellKnown: 'http://127.0.0.1:9/.well-known/openid-configuration' });
  });

  it.each(['github.com', 'ftp://github.com', 'https://github.com/?x=1', 'https://github.com/#top'])('refuses GITHUB_URL=%s', (value) => {
    expect(envSchema.safeParse({ GITHUB_URL: value }).success).toBe(false);
  });
});

describe('the GitHub profile request (against the fake GitHub)', () => {
  let fake: FakeGitHub;
  beforeAll(async () => {
    fake = await startFakeGitHub();
  });
  afterAll(async () => {
    await fake.close();
  });

  const fetchProfile = (accessToken: string) => {
    const env = envWith({ GITHUB_CLIENT_ID: fake.clientId, GITHUB_CLIENT_SECRET: fake.clientSecret, GITHUB_URL: fake.url, GITHUB_API_URL: fake.apiUrl });
    const options = (configuredOAuthProviders(env)[0] as OAuthConfig<unknown>).options as unknown as {
      userinfo: { request: (context: unknown) => Promise<unknown> };
    };
    return options.userinfo.request({ tokens: { access_token: accessToken } });
  };

  const octo: FakeGitHubAccount = {
    id: 583231,
    login: 'octocat',
    name: 'The Octocat',
    emails: [
      { email: 'octo-old@example.test', primary: false, verified: true },
      { email: 'octo@example.test', primary: true, verified: true },
    ],
  };

  it('takes the primary email from /user/emails with its verified flag', async () => {
    expect(await fetchProfile(fake.issueToken(octo))).toMatchObject({ id: 583231, login: 'octocat', email: 'octo@example.test', email_verified: true });
  });

  it('does not trust the public profile email when the primary one is unverified', async () => {
    const account = { ...octo, publicEmail: 'octo-old@example.test', emails: [{ email: 'new@example.test', primary: true, verified: false }] };
    expect(await fetchProfile(fake.issueToken(account))).toMatchObject({ email: 'new@example.test', email_verified: false });
  });

  it('fails, naming the endpoint but not the token, when GitHub refuses the emails (no user:email scope)', async () => {
    const token = fake.issueToken(octo, 'read:user');
    const failure = await fetchProfile(token).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe('GitHub API /api/v3/user/emails answered 404');
  });

  it('fails on a token GitHub does not know', async () => {
    await expect(fetchProfile('gho_unknown')).rejects.toThrow('answered 401');
  });
});
