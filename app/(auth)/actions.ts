'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { describeSignInError } from '@/components/auth/sign-in-error';
import { withFlash } from '@/components/account/flash';
import { accountPaths } from '@/lib/site/paths';
import { settingsDone } from '../account/settings/messages';
import {
  attemptPasswordSignIn,
  confirmEmail,
  describeWait,
  endSession,
  passwordSignInError,
  requestPasswordReset,
  resetPassword,
  safeReturnPath,
  signUpWithVerification,
  startSession,
} from '@/lib/accounts';
import { clientAddressFromHeaders } from '@/lib/platform/client-address';
import { getDb } from '@/lib/platform/db';
import { formDataOf } from '@/lib/platform/text-input';

export interface AuthFormState {
  formError?: string;
  fieldErrors?: Partial<Record<'email' | 'password' | 'name', string>>;
  /** Never the password. */
  values?: { email?: string; name?: string };
  /** The answer is the same whether or not the address has an account. */
  sentTo?: string;
}

const text = (form: FormData, key: string): string => {
  const v = formDataOf(form).get(key);
  return typeof v === 'string' ? v : '';
};

export async function signInAction(_previous: AuthFormState, form: FormData): Promise<AuthFormState> {
  const email = text(form, 'email').trim();
  const password = text(form, 'password');
  const values = { email };
  const fieldErrors: AuthFormState['fieldErrors'] = {};
  if (!email) fieldErrors.email = 'Enter your email address.';
  if (!password) fieldErrors.password = 'Enter your password.';
  if (fieldErrors.email || fieldErrors.password) return { fieldErrors, values };

  const result = await attemptPasswordSignIn(email, password, clientAddressFromHeaders(await headers()));
  if (!result.ok) return { formError: describeSignInError(passwordSignInError(result)), values };
  await startSession(result.user);
  redirect(safeReturnPath(text(form, 'callbackUrl')));
}

/** "Check your inbox" whether or not the address already has an account (docs/api.md §11.3). */
export async function signUpAction(_previous: AuthFormState, form: FormData): Promise<AuthFormState> {
  const values = { email: text(form, 'email').trim(), name: text(form, 'name').trim() };
  const input = { email: values.email, password: text(form, 'password'), name: values.name };
  const returnTo = safeReturnPath(text(form, 'callbackUrl'), '/');
  const result = await signUpWithVerification(await getDb(), input, clientAddressFromHeaders(await headers()), returnTo);
  if (!result.ok) {
    if (result.code === 'too_many_attempts') {
      return { formError: `Too many new accounts from your network. Try again in ${describeWait(result.retryAfterSeconds)}.`, values };
    }
    return { fieldErrors: result.fieldErrors, values };
  }
  return { sentTo: result.email };
}

/** The same answer for every well-formed address. */
export async function forgotPasswordAction(_previous: AuthFormState, form: FormData): Promise<AuthFormState> {
  const email = text(form, 'email').trim();
  if (!email) return { fieldErrors: { email: 'Enter your email address.' } };
  const result = await requestPasswordReset(await getDb(), email, clientAddressFromHeaders(await headers()));
  if (!result.ok) {
    if (result.code === 'too_many_attempts')
      return { formError: `Too many reset requests. Try again in ${describeWait(result.retryAfterSeconds)}.`, values: { email } };
    return { fieldErrors: { email: result.message }, values: { email } };
  }
  return { sentTo: email.toLowerCase() };
}

export interface ResetFormState {
  formError?: string;
  fieldErrors?: { password?: string };
}

export async function resetPasswordAction(_previous: ResetFormState, form: FormData): Promise<ResetFormState> {
  const result = await resetPassword(await getDb(), text(form, 'token'), text(form, 'password'));
  if (!result.ok) {
    if (result.code === 'invalid_input') return { fieldErrors: { password: result.fieldErrors.password } };
    return { formError: 'This reset link has expired or was already used. Ask for a new one.' };
  }
  redirect('/signin?reset=1');
}

export async function confirmEmailAction(form: FormData): Promise<void> {
  const result = await confirmEmail(await getDb(), text(form, 'token'));
  if (!result.ok) redirect('/verify-email?invalid=1');
  await startSession(result.user);
  const next = safeReturnPath(text(form, 'next'), '');
  if (!next) redirect(settingsDone.withFlash(accountPaths.settings, 'verified'));
  if (next.startsWith('/account/settings')) redirect(`${next}${next.includes('?') ? '&' : '?'}done=verified`);
  redirect(next.startsWith('/account') ? withFlash(next, 'email_verified') : next);
}

export async function signOutAction(): Promise<void> {
  await endSession();
  redirect('/?signedOut=1');
}
