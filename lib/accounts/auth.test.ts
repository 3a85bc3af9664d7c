import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { providerRefusalRedirect } from './auth';
import { resetEnvForTesting } from '@/lib/platform/env';

/** A provider's refusal at the callback becomes a sign-in page message instead of next-auth's generic "Callback". */
describe('providerRefusalRedirect', () => {
  beforeAll(() => {
    vi.stubEnv('GITHUB_CLIENT_ID', 'Iv1.test');
    vi.stubEnv('GITHUB_CLIENT_SECRET', 'test-secret');
    vi.stubEnv('APP_URL', 'http://localhost:3000');
    resetEnvForTesting();
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    resetEnvForTesting();
  });

  const at = (pathAndQuery: string) => {
    const target = providerRefusalRedirect(new URL(pathAndQuery, 'http://app.test'));
    return target && `${target.pathname}${target.search}`;
  };

  it.each([
    ['/api/auth/callback/github?error=access_denied&state=s', '/signin?error=OAuthDenied&provider=github'],
    ['/api/auth/callback/github?error=redirect_uri_mismatch&state=s', '/signin?error=OAuthProviderError&provider=github'],
    ['/api/auth/callback/github?code=abc&state=s', null],
    ['/api/auth/callback/google?error=access_denied', null],
    ['/api/auth/signin/github?error=access_denied', null],
    ['/api/auth/callback/github/extra?error=access_denied', null],
  ])('%s → %s', (input, expected) => expect(at(input)).toBe(expected));

  it('sends the browser to this deployment (APP_URL), not to the host the request named', () => {
    expect(providerRefusalRedirect(new URL('http://evil.test/api/auth/callback/github?error=access_denied'))?.origin).toBe('http://localhost:3000');
  });
});
