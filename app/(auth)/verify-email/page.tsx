import type { Metadata } from 'next';
import Link from 'next/link';
import { Alert } from '@/components/ui/alert';
import { SubmitButton } from '@/components/ui/submit-button';
import { AuthCard } from '../auth-card';
import { confirmEmailAction } from '../actions';

export const metadata: Metadata = { title: 'Confirm your email address' };

// Confirming is a button, not the visit: mail scanners that open links must not use the single-use link up.
export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const token = typeof params.token === 'string' ? params.token : '';
  const next = typeof params.next === 'string' ? params.next : '';
  const footer = (
    <Link href="/signin" className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-600">
      Sign in
    </Link>
  );
  if (!token || params.invalid === '1') {
    return (
      <AuthCard title="Confirm your email address" intro="Confirming proves the address is yours." footer={footer}>
        <Alert tone="error" title="This link cannot be used">
          Verification links work once and expire after 24 hours. Sign in and choose “Resend verification email” on your{' '}
          <Link href="/account/settings" className="font-semibold underline">
            account settings
          </Link>{' '}
          to get a new one.
        </Alert>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Confirm your email address" intro="One click proves the address is yours and signs you in." footer={footer}>
      <form action={confirmEmailAction}>
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name="next" value={next} />
        <SubmitButton pendingLabel="Confirming…" className="w-full">
          Confirm my email address
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
