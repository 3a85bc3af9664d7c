'use server';

import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { changePassword, endAllSessions, forgetSessionVersion, requireSessionUser, resendVerification, sessionCookie, startSession } from '@/lib/accounts';
import { deleteAccount } from '@/lib/billing';
import { clientAddressFromHeaders } from '@/lib/platform/client-address';
import { formDataOf } from '@/lib/platform/text-input';
import { runOncePerForm } from '@/lib/site/form-action';
import { settingsDone, settingsError, type SettingsDone, type SettingsError } from './messages';

// The settings page's actions, once per rendered form (docs/api.md §7.4): a repeat goes where the first went instead
// of answering "that is not your password" about a password that was just changed.
const PAGE = '/account/settings';
const done = (code: SettingsDone) => settingsDone.withFlash(PAGE, code);
const failed = (code: SettingsError, anchor = '') => settingsError.withFlash(PAGE, code) + anchor;
const SIGNED_OUT_EVERYWHERE = '/signin?signedOut=everywhere';
const DELETED = '/signin?deleted=1';

const field = (form: FormData, key: string): string => {
  const v = formDataOf(form).get(key);
  return typeof v === 'string' ? v : '';
};

async function removeSessionCookie(): Promise<void> {
  const { name, options } = sessionCookie();
  (await cookies()).set(name, '', { ...options, maxAge: 0 });
}

export async function resendVerificationAction(form: FormData): Promise<void> {
  const user = await requireSessionUser(PAGE);
  const address = clientAddressFromHeaders(await headers());
  const result = await runOncePerForm(
    form,
    user.id,
    (tx) => resendVerification(tx, user, address),
    (r) => (r.ok ? done(r.alreadyVerified ? 'already_verified' : 'verification_sent') : null),
  );
  if (!result.ok) redirect(failed('too_many'));
  redirect(done(result.alreadyVerified ? 'already_verified' : 'verification_sent'));
}

/** A new password ends every session and this browser gets a new one; a repeat gets none. */
export async function changePasswordAction(form: FormData): Promise<void> {
  const user = await requireSessionUser(PAGE);
  const address = clientAddressFromHeaders(await headers());
  const result = await runOncePerForm(
    form,
    user.id,
    (tx) => changePassword(tx, { userId: user.id, currentPassword: field(form, 'currentPassword'), password: field(form, 'password') }, address),
    (r) => (r.ok ? done('password_changed') : null),
  );
  if (!result.ok) {
    if (result.code === 'too_many_attempts') redirect(failed('password_too_many', '#password-heading'));
    if (result.code === 'invalid_input') redirect(failed(result.fieldErrors.currentPassword ? 'current_password' : 'password_rule', '#password-heading'));
    redirect('/signin');
  }
  // The new generation is committed now: this process must not keep trusting the old one it may have cached meanwhile.
  forgetSessionVersion(user.id);
  await startSession(result.user);
  redirect(done('password_changed'));
}

export async function signOutEverywhereAction(form: FormData): Promise<void> {
  const user = await requireSessionUser(PAGE);
  await runOncePerForm(
    form,
    user.id,
    async (tx) => {
      await endAllSessions(user.id, tx);
      return { ok: true as const };
    },
    () => SIGNED_OUT_EVERYWHERE,
    { onRepeat: removeSessionCookie },
  );
  forgetSessionVersion(user.id);
  await removeSessionCookie();
  redirect(SIGNED_OUT_EVERYWHERE);
}

export async function deleteAccountAction(form: FormData): Promise<void> {
  const user = await requireSessionUser(PAGE);
  const result = await runOncePerForm(
    form,
    user.id,
    (tx) => deleteAccount(tx, { userId: user.id, confirmEmail: field(form, 'confirmEmail'), password: field(form, 'password') }),
    (r) => (r.ok ? DELETED : null),
    { onRepeat: removeSessionCookie },
  );
  if (!result.ok) redirect(failed(result.code === 'wrong_password' ? 'delete_password' : 'delete_confirmation', '#delete-heading'));
  forgetSessionVersion(user.id);
  await removeSessionCookie();
  redirect(DELETED);
}
