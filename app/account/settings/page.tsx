import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Alert } from '@/components/ui/alert';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { NewPasswordField } from '@/components/auth/new-password-field';
import { Field } from '@/components/ui/field';
import { Section } from '@/components/ui/section';
import { SubmitButton } from '@/components/ui/submit-button';
import { getAccountSettings, requireSessionUser } from '@/lib/accounts';
import { getDb } from '@/lib/platform/db';
import { FORM_TOKEN_FIELD, newFormToken } from '@/lib/platform/form-submissions';
import { findPublisherForUser } from '@/lib/publishing';
import { changePasswordAction, deleteAccountAction, resendVerificationAction, signOutEverywhereAction } from './actions';
import { parseSettingsMessage, type SettingsSection } from './messages';

export const metadata: Metadata = { title: 'Account settings' };
export const dynamic = 'force-dynamic';

// Account settings (docs/api.md §11.3).
export default async function AccountSettingsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireSessionUser('/account/settings');
  const params = await searchParams;
  const db = await getDb();
  const [settings, publisher] = await Promise.all([getAccountSettings(db, user.id), findPublisherForUser(db, user.id)]);
  if (!settings) notFound();
  const message = parseSettingsMessage(params.done, params.error);
  const card = 'mt-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6';
  const once = () => <input type="hidden" name={FORM_TOKEN_FIELD} value={newFormToken()} />;
  const messageFor = (section: SettingsSection) =>
    message?.section === section ? (
      <Alert tone={message.tone} className="mb-4" testId={`${section}-message`}>
        {message.text}
      </Alert>
    ) : null;

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <Breadcrumb items={[{ label: 'Your account', href: '/account' }, { label: 'Settings' }]} />
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">Account settings</h1>

      <Section id="email-heading" title="Email address" size="lg" className="mt-8">
        <div className={card}>
          {messageFor('email')}
          <p className="break-all text-sm text-slate-900">
            <span className="font-medium">{settings.email}</span>{' '}
            {settings.verified ? (
              <span className="ml-1 inline-flex rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">Confirmed</span>
            ) : (
              <span className="ml-1 inline-flex rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-950">Not confirmed</span>
            )}
          </p>
          {settings.verified ? null : (
            <>
              <p className="mt-2 text-sm text-slate-700">
                Until you confirm your address you can browse, but not buy plans or create API keys. The link we sent works once and expires in 24 hours.
              </p>
              <form action={resendVerificationAction} className="mt-3">
                {once()}
                <SubmitButton variant="secondary" pendingLabel="Sending…">
                  Resend verification email
                </SubmitButton>
              </form>
            </>
          )}
        </div>
      </Section>

      <Section id="password-heading" title={settings.hasPassword ? 'Change password' : 'Set a password'} size="lg" className="mt-8">
        <form action={changePasswordAction} className={`${card} space-y-4`}>
          {messageFor('password')}
          {once()}
          {settings.hasPassword ? (
            <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" required />
          ) : (
            <p className="text-sm text-slate-700">You sign in through a provider; a password lets you sign in with your email too.</p>
          )}
          <NewPasswordField label="New password" note="Every other session is signed out." />
          <SubmitButton pendingLabel="Saving…">Save new password</SubmitButton>
        </form>
      </Section>

      <Section id="sessions-heading" title="Sessions" size="lg" className="mt-8">
        <div className={card}>
          <p className="text-sm text-slate-700">Signed in on a computer you no longer use? Sign out on every device and browser, this one included.</p>
          <form action={signOutEverywhereAction} className="mt-3">
            {once()}
            <SubmitButton variant="secondary" pendingLabel="Signing out…">
              Sign out everywhere
            </SubmitButton>
          </form>
        </div>
      </Section>

      <Section id="delete-heading" title="Delete account" size="lg" className="mt-8">
        <form action={deleteAccountAction} className={`${card} space-y-4 border-red-200`}>
          {messageFor('delete')}
          {once()}
          <p className="text-sm text-slate-700">
            Deleting your account revokes every API key at once, ends every subscription now (without a refund of the current period), and removes your email
            address, name and sign-in methods. Invoices are kept by our payment provider, as the law requires. This cannot be undone.
          </p>
          {publisher ? (
            <p className="text-sm text-slate-700" data-testid="delete-closes-publisher">
              Your publisher profile <span className="font-medium text-slate-900">{publisher.name}</span> closes with it: its public page goes, its listings
              leave the catalogue and can no longer be bought, and the buyers who subscribed keep access until the end of the period they paid for. Your
              earnings records are kept, as the law requires.
            </p>
          ) : null}
          {/* After a wrong password the address was right: it stays filled in, only the password is asked again. */}
          <Field
            label="Type your email address to confirm"
            name="confirmEmail"
            type="email"
            autoComplete="off"
            required
            defaultValue={message?.code === 'delete_password' ? settings.email : undefined}
          />
          {/* Its own id: the password change above has a field named "password" too, and a label must name one control. */}
          {settings.hasPassword ? (
            <Field label="Password" name="password" id="delete-password" type="password" autoComplete="current-password" required />
          ) : null}
          <SubmitButton variant="danger" pendingLabel="Deleting…">
            Delete my account
          </SubmitButton>
        </form>
      </Section>
    </div>
  );
}
