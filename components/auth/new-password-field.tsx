import { Field } from '@/components/ui/field';

/** The field for choosing a password (sign-up, reset, settings), with the rule of lib/accounts/passwords.ts as its hint. */
export function NewPasswordField({ label = 'Password', error, note }: { label?: string; error?: string; note?: string }) {
  return (
    <Field
      label={label}
      name="password"
      type="password"
      autoComplete="new-password"
      required
      minLength={10}
      hint={`At least 10 characters, and not a common password.${note ? ` ${note}` : ''}`}
      error={error}
    />
  );
}
