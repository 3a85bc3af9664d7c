'use client';

import { useActionState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { resetPasswordAction, type ResetFormState } from '../actions';

export function ResetPasswordForm({ token }: { token: string }) {
  const [state, action] = useActionState<ResetFormState, FormData>(resetPasswordAction, {});
  return (
    <form action={action} className="space-y-4" noValidate>
      {state.formError ? <Alert tone="error">{state.formError}</Alert> : null}
      <input type="hidden" name="token" value={token} />
      <Field
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
        hint="At least 10 characters, and not a common password."
        error={state.fieldErrors?.password}
      />
      <SubmitButton pendingLabel="Saving…" className="w-full">
        Set new password
      </SubmitButton>
    </form>
  );
}
