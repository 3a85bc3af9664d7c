'use client';

import { useActionState } from 'react';
import { Alert } from '@/components/ui/alert';
import { NewPasswordField } from '@/components/auth/new-password-field';
import { SubmitButton } from '@/components/ui/submit-button';
import { resetPasswordAction, type ResetFormState } from '../actions';

export function ResetPasswordForm({ token }: { token: string }) {
  const [state, action] = useActionState<ResetFormState, FormData>(resetPasswordAction, {});
  return (
    <form action={action} className="space-y-4" noValidate>
      {state.formError ? <Alert tone="error">{state.formError}</Alert> : null}
      <input type="hidden" name="token" value={token} />
      <NewPasswordField label="New password" error={state.fieldErrors?.password} />
      <SubmitButton pendingLabel="Saving…" className="w-full">
        Set new password
      </SubmitButton>
    </form>
  );
}
