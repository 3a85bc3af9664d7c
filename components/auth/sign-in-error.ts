import { describeWait, type SignInError } from '@/lib/accounts';

// The words for each sign-in error of lib/accounts/auth.ts (docs/api.md §11.1); the switch is exhaustive, so a new code
// fails the type check here until it has its words.
export function describeSignInError(error: SignInError, provider = 'the provider'): string {
  const Provider = provider.charAt(0).toUpperCase() + provider.slice(1);
  switch (error.code) {
    case 'CredentialsSignin':
      return 'That email and password do not match an account.';
    case 'TooManyAttempts':
      return `Too many failed attempts. Try again in ${describeWait(error.retryAfterSeconds)}.`;
    case 'OAuthDenied':
      return `Sign-in with ${provider} was cancelled, so you are not signed in. Try again, or use your email and password.`;
    case 'OAuthProviderError':
      return `${Provider} could not complete the sign-in. Please try again, or use your email and password.`;
    case 'OAuthCallback':
      // next-auth does not say which request to the provider failed.
      return `Signing in with ${provider} failed. Please try again, or use your email and password.`;
    case 'OAuthEmailMissing':
      return `${Provider} did not share an email address, so we could not sign you in.`;
    case 'OAuthEmailNotVerified':
      return `${Provider} has not verified the email address of your account, so it cannot be used to sign in here. Verify it with ${provider} and try again, or sign in with your email and password.`;
    case 'OAuthAccountUnverified':
      return `An Almanac account with this email exists, but its address has not been confirmed, so ${provider} cannot be linked to it. Confirm it with the link we emailed, or use "Forgot password?" to prove the address, then sign in with ${provider} again.`;
    case 'OAuthAccountNotLinked':
      return 'This email is already used with another sign-in method.';
    case 'Callback':
    case 'Default':
      return 'Sign-in did not complete. Please try again.';
  }
}
