'use client';

import { useActionState } from 'react';
import { Alert } from '@/components/ui/alert';
import { NewPasswordField } from '@/components/auth/new-password-field';
import { Field } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { signUpAction, type AuthFormState } from '../actions';

export function SignUpForm({ callbackUrl }: { callbackUrl: string }) {
  const [state, action] = useActionState<AuthFormState, FormData>(signUpAction, {});
  if (state.sentTo) {
    return (
      <Alert tone="success" title="Check your inbox">
        We sent a message to <strong>{state.sentTo}</strong>. Open the link in it to confirm your address and sign in; it works once and expires in 24 hours. If
        the address already has an account, the message says how to sign in instead.
      </Alert>
    );
  }
  return (
    <form action={action} className="space-y-4" noValidate>
      {state.formError ? <Alert tone="error">{state.formError}</Alert> : null}
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <Field label="Name (optional)" name="name" type="text" autoComplete="name" defaultValue={state.values?.name} error={state.fieldErrors?.name} />
      <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={state.values?.email} error={state.fieldErrors?.email} />
      <NewPasswordField error={state.fieldErrors?.password} />
      <SubmitButton pendingLabel="Creating your account…" className="w-full">
        Create account
      </SubmitButton>
    </form>
  );
}
