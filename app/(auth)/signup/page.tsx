import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { enabledOAuthProviders } from '@/lib/accounts';
import { getSessionUser, safeReturnPath } from '@/lib/accounts';
import { AuthCard } from '../auth-card';
import { planParam, purchaseIntent } from '../purchase-intent';
import { OAuthButtons } from '../signin/oauth-buttons';
import { SignUpForm } from './sign-up-form';

export const metadata: Metadata = { title: 'Create an account' };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeReturnPath(typeof params.callbackUrl === 'string' ? params.callbackUrl : undefined);
  if (await getSessionUser()) redirect(callbackUrl);
  const intent = await purchaseIntent(params.plan);
  return (
    <AuthCard
      title={intent ? `Create an account to ${intent}` : 'Create your account'}
      intro="Subscribe to knowledge bases and query them through one API."
      footer={
        <>
          Already have an account?{' '}
          <Link
            href={`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}${planParam(params.plan)}`}
            className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-600"
          >
            Sign in
          </Link>
        </>
      }
    >
      <SignUpForm callbackUrl={callbackUrl} />
      <OAuthButtons providers={enabledOAuthProviders()} callbackUrl={callbackUrl} />
    </AuthCard>
  );
}
