'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { describeSignInError } from '@/components/auth/sign-in-error';
import { attemptPasswordSignIn, attemptSignUp, describeWait, endSession, passwordSignInError, safeReturnPath, startSession } from '@/lib/accounts';
import { clientAddressFromHeaders } from '@/lib/platform/client-address';
import { getDb } from '@/lib/platform/db';
import { formDataOf } from '@/lib/platform/text-input';

export interface AuthFormState {
  /** A message for the whole form (wrong password, too many attempts). */
  formError?: string;
  fieldErrors?: Partial<Record<'email' | 'password' | 'name', string>>;
  /** Echoed back so the visitor does not retype them (never the password). */
  values?: { email?: string; name?: string };
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

export async function signUpAction(_previous: AuthFormState, form: FormData): Promise<AuthFormState> {
  const values = { email: text(form, 'email').trim(), name: text(form, 'name').trim() };
  const input = { email: values.email, password: text(form, 'password'), name: values.name };
  const result = await attemptSignUp(await getDb(), input, clientAddressFromHeaders(await headers()));
  if (!result.ok) {
    if (result.code === 'too_many_attempts') {
      return { formError: `Too many new accounts from your network. Try again in ${describeWait(result.retryAfterSeconds)}.`, values };
    }
    if (result.code === 'email_taken') {
      return { fieldErrors: { email: 'An account with this email already exists. Sign in instead.' }, values };
    }
    return { fieldErrors: result.fieldErrors, values };
  }
  await startSession(result.user);
  redirect(safeReturnPath(text(form, 'callbackUrl')));
}

export async function signOutAction(): Promise<void> {
  await endSession();
  redirect('/?signedOut=1');
}
