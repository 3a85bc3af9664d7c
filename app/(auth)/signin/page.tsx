import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { Alert } from '@/components/ui/alert';
import { enabledOAuthProviders } from '@/lib/accounts';
import { getSessionUser, safeReturnPath } from '@/lib/accounts';
import { describeWait } from '@/lib/accounts';
import { AuthCard } from '../auth-card';
import { OAuthButtons } from './oauth-buttons';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Sign in' };

/** Errors next-auth and the OAuth sign-in report through `?error=` (and `?provider=` for the OAuth ones). */
function describeAuthError(code: string | undefined, providerName: string): string | null {
  if (!code) return null;
  const tooMany = /^TooManyAttempts:(\d+)$/.exec(code);
  if (tooMany) return `Too many failed attempts. Try again in ${describeWait(Number(tooMany[1]))}.`;
  const Provider = providerName.charAt(0).toUpperCase() + providerName.slice(1);
  switch (code) {
    case 'CredentialsSignin':
      return 'That email and password do not match an account.';
    case 'OAuthDenied':
      return `Sign-in with ${providerName} was cancelled, so you are not signed in. Try again, or use your email and password.`;
    case 'OAuthProviderError':
      return `${Provider} could not complete the sign-in. Please try again, or use your email and password.`;
    case 'OAuthCallback':
      // next-auth's report of a failed exchange with the provider (token or profile request); it does not say which.
      return `Signing in with ${providerName} failed. Please try again, or use your email and password.`;
    case 'OAuthEmailMissing':
      return `${Provider} did not share an email address, so we could not sign you in.`;
    case 'OAuthEmailNotVerified':
      return `${Provider} has not verified the email address of your account, so it cannot be used to sign in here. Verify it with ${providerName} and try again, or sign in with your email and password.`;
    case 'OAuthAccountNotLinked':
      return 'This email is already used with another sign-in method.';
    default:
      return 'Sign-in did not complete. Please try again.';
  }
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeReturnPath(typeof params.callbackUrl === 'string' ? params.callbackUrl : undefined);
  if (await getSessionUser()) redirect(callbackUrl);
  const providers = enabledOAuthProviders();
  const providerName = providers.find((p) => p.id === params.provider)?.name ?? 'the provider';
  const error = describeAuthError(typeof params.error === 'string' ? params.error : undefined, providerName);
  const signUpHref = `/signup?callbackUrl=${encodeURIComponent(callbackUrl)}`;
  return (
    <AuthCard
      title="Sign in"
      intro="Welcome back. Sign in to manage your subscriptions and API keys."
      footer={
        <>
          New to Almanac?{' '}
          <Link href={signUpHref} className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-600">
            Create an account
          </Link>
        </>
      }
    >
      {error ? (
        <Alert tone="error" className="mb-4">
          {error}
        </Alert>
      ) : null}
      <SignInForm callbackUrl={callbackUrl} />
      <OAuthButtons providers={providers} callbackUrl={callbackUrl} />
    </AuthCard>
  );
}
