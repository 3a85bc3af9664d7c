import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { describeSignInError } from '@/components/auth/sign-in-error';
import { Alert } from '@/components/ui/alert';
import { enabledOAuthProviders, getSessionUser, parseSignInError, safeReturnPath } from '@/lib/accounts';
import { AuthCard } from '../auth-card';
import { planParam, purchaseIntent } from '../purchase-intent';
import { OAuthButtons } from './oauth-buttons';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeReturnPath(typeof params.callbackUrl === 'string' ? params.callbackUrl : undefined);
  if (await getSessionUser()) redirect(callbackUrl);
  const providers = enabledOAuthProviders();
  // next-auth and the OAuth sign-in report why a sign-in failed through `?error=` (and `?provider=` for OAuth).
  const signInError = parseSignInError(typeof params.error === 'string' ? params.error : undefined);
  const error = signInError && describeSignInError(signInError, providers.find((p) => p.id === params.provider)?.name);
  const signUpHref = `/signup?callbackUrl=${encodeURIComponent(callbackUrl)}${planParam(params.plan)}`;
  const intent = await purchaseIntent(params.plan);
  return (
    <AuthCard
      title={intent ? `Sign in to ${intent}` : 'Sign in'}
      intro={
        intent ? 'Sign in, or create an account, and you come back to the plan to finish.' : 'Welcome back. Sign in to manage your subscriptions and API keys.'
      }
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
      {params.signedOut === 'everywhere' ? (
        <Alert tone="success" className="mb-4">
          You are signed out on every device and browser.
        </Alert>
      ) : null}
      {params.deleted === '1' ? (
        <Alert tone="success" className="mb-4">
          Your account was deleted: its keys are revoked, its subscriptions ended and its personal data removed.
        </Alert>
      ) : null}
      {params.reset === '1' ? (
        <Alert tone="success" className="mb-4">
          Your password was changed and every session was signed out. Sign in with your new password.
        </Alert>
      ) : null}
      <SignInForm callbackUrl={callbackUrl} />
      <OAuthButtons providers={providers} callbackUrl={callbackUrl} />
    </AuthCard>
  );
}
