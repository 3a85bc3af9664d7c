'use server';

import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { changePassword, endSession, requireSessionUser, resendVerification, sessionCookie, startSession } from '@/lib/accounts';
import { deleteAccount } from '@/lib/billing';
import { clientAddressFromHeaders } from '@/lib/platform/client-address';
import { getDb } from '@/lib/platform/db';
import { formDataOf } from '@/lib/platform/text-input';
import type { SettingsDone, SettingsError } from './messages';

const PAGE = '/account/settings';
const done = (code: SettingsDone) => `${PAGE}?done=${code}`;
const failed = (code: SettingsError, anchor = '') => `${PAGE}?error=${code}${anchor}`;

const field = (form: FormData, key: string): string => {
  const v = formDataOf(form).get(key);
  return typeof v === 'string' ? v : '';
};

export async function resendVerificationAction(): Promise<void> {
  const user = await requireSessionUser(PAGE);
  const result = await resendVerification(await getDb(), user, clientAddressFromHeaders(await headers()));
  if (!result.ok) redirect(failed('too_many'));
  redirect(done(result.alreadyVerified ? 'already_verified' : 'verification_sent'));
}

/** A new password ends every session; this browser gets a new one at once. */
export async function changePasswordAction(form: FormData): Promise<void> {
  const user = await requireSessionUser(PAGE);
  const result = await changePassword(
    await getDb(),
    { userId: user.id, currentPassword: field(form, 'currentPassword'), password: field(form, 'password') },
    clientAddressFromHeaders(await headers()),
  );
  if (!result.ok) {
    if (result.code === 'too_many_attempts') redirect(failed('too_many', '#password-heading'));
    if (result.code === 'invalid_input') redirect(failed(result.fieldErrors.currentPassword ? 'current_password' : 'password_rule', '#password-heading'));
    redirect('/signin');
  }
  await startSession(result.user);
  redirect(done('password_changed'));
}

/** Signs out every session of the account, this one included (lib/accounts/session-version.ts). */
export async function signOutEverywhereAction(): Promise<void> {
  await requireSessionUser(PAGE);
  await endSession();
  redirect('/signin?signedOut=everywhere');
}

export async function deleteAccountAction(form: FormData): Promise<void> {
  const user = await requireSessionUser(PAGE);
  const result = await deleteAccount(await getDb(), { userId: user.id, confirmEmail: field(form, 'confirmEmail'), password: field(form, 'password') });
  if (!result.ok) {
    const code: SettingsError =
      result.code === 'wrong_password' ? 'delete_password' : result.code === 'publisher_account' ? 'delete_publisher' : 'delete_confirmation';
    redirect(failed(code, '#delete-heading'));
  }
  const { name, options } = sessionCookie();
  (await cookies()).set(name, '', { ...options, maxAge: 0 });
  redirect('/signin?deleted=1');
}
