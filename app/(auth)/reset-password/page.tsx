import type { Metadata } from 'next';
import Link from 'next/link';
import { Alert } from '@/components/ui/alert';
import { peekAccountToken } from '@/lib/accounts';
import { getDb } from '@/lib/platform/db';
import { AuthCard } from '../auth-card';
import { ResetPasswordForm } from './reset-password-form';

export const metadata: Metadata = { title: 'Choose a new password' };
export const dynamic = 'force-dynamic';

/** The reset link's page: a form while the link is usable; it is used (single use) when the form is sent. */
export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const token = typeof params.token === 'string' ? params.token : '';
  const usable = token !== '' && (await peekAccountToken(await getDb(), token, 'reset_password'));
  return (
    <AuthCard
      title="Choose a new password"
      intro="Setting a new password signs you out on every device."
      footer={
        <Link href="/signin" className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-600">
          Back to sign in
        </Link>
      }
    >
      {usable ? (
        <ResetPasswordForm token={token} />
      ) : (
        <Alert tone="error" title="This link cannot be used">
          Reset links work once and expire after 1 hour.{' '}
          <Link href="/forgot-password" className="font-semibold underline">
            Ask for a new link
          </Link>
          .
        </Alert>
      )}
    </AuthCard>
  );
}
