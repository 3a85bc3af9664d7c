'use client';

import { useActionState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { forgotPasswordAction, type AuthFormState } from '../actions';

export function ForgotPasswordForm() {
  const [state, action] = useActionState<AuthFormState, FormData>(forgotPasswordAction, {});
  if (state.sentTo) {
    return (
      <Alert tone="success" title="Check your inbox">
        If an account uses <strong>{state.sentTo}</strong>, we sent it a link to choose a new password. The link works once and expires in 1 hour.
      </Alert>
    );
  }
  return (
    <form action={action} className="space-y-4" noValidate>
      {state.formError ? <Alert tone="error">{state.formError}</Alert> : null}
      <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={state.values?.email} error={state.fieldErrors?.email} />
      <SubmitButton pendingLabel="Sending…" className="w-full">
        Send reset link
      </SubmitButton>
    </form>
  );
}
