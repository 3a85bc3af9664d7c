'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { signInAction, type AuthFormState } from '../actions';

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const [state, action] = useActionState<AuthFormState, FormData>(signInAction, {});
  return (
    <form action={action} className="space-y-4" noValidate>
      {state.formError ? <Alert tone="error">{state.formError}</Alert> : null}
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={state.values?.email} error={state.fieldErrors?.email} />
      <Field label="Password" name="password" type="password" autoComplete="current-password" required error={state.fieldErrors?.password} />
      <p className="-mt-2 text-right text-sm">
        <Link href="/forgot-password" className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-600">
          Forgot password?
        </Link>
      </p>
      <SubmitButton pendingLabel="Signing in…" className="w-full">
        Sign in
      </SubmitButton>
    </form>
  );
}
