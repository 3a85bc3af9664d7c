import { describe, expect, it } from 'vitest';
import { encodeSignInError, parseSignInError, SIGN_IN_ERROR_CODES, signInErrorPath, type SignInError } from '@/lib/accounts';
import { describeSignInError } from './sign-in-error';

/** What the page reads back from `?error=`, through the URL as the browser carries it. */
function roundTrip(error: SignInError): SignInError | null {
  const url = new URL(signInErrorPath(error, 'github'), 'http://app.test');
  return parseSignInError(url.searchParams.get('error') ?? undefined);
}

describe('sign-in errors', () => {
  it('reads back every code that is written, the wait included', () => {
    for (const code of SIGN_IN_ERROR_CODES) {
      const error: SignInError = code === 'TooManyAttempts' ? { code, retryAfterSeconds: 840 } : { code };
      expect(roundTrip(error)).toEqual(error);
    }
    expect(encodeSignInError({ code: 'TooManyAttempts', retryAfterSeconds: 12.2 })).toBe('TooManyAttempts:13');
  });

  it.each([
    ['no value', undefined, null],
    ['next-auth code we do not word', 'OAuthSignin', { code: 'Default' }],
    ['free text', 'Your account is locked, call 555-0100', { code: 'Default' }],
    ['wait missing', 'TooManyAttempts', { code: 'Default' }],
    ['wait not a whole number', 'TooManyAttempts:1e3', { code: 'Default' }],
    ['wait of zero', 'TooManyAttempts:0', { code: 'Default' }],
    ['wait beyond a day', 'TooManyAttempts:86401', { code: 'Default' }],
    ['extra part', 'TooManyAttempts:60:1', { code: 'Default' }],
    ['argument on another code', 'CredentialsSignin:5', { code: 'Default' }],
  ])('parses %s as %j', (_case, value, expected) => expect(parseSignInError(value)).toEqual(expected));

  it.each<[SignInError, string]>([
    [{ code: 'CredentialsSignin' }, 'That email and password do not match an account.'],
    [{ code: 'TooManyAttempts', retryAfterSeconds: 840 }, 'Too many failed attempts. Try again in 14 minutes.'],
    [{ code: 'TooManyAttempts', retryAfterSeconds: 40 }, 'Too many failed attempts. Try again in 40 seconds.'],
    [{ code: 'OAuthEmailMissing' }, 'GitHub did not share an email address, so we could not sign you in.'],
    [{ code: 'Callback' }, 'Sign-in did not complete. Please try again.'],
    [{ code: 'Default' }, 'Sign-in did not complete. Please try again.'],
  ])('words %j', (error, text) => expect(describeSignInError(error, 'GitHub')).toBe(text));
});
