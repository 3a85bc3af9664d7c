import { SubmitButton } from '@/components/ui/submit-button';
import { FORM_TOKEN_FIELD, newFormToken } from '@/lib/platform/form-submissions';

// On every page for an unconfirmed address (docs/api.md §11.3), so the buyer learns it before a Buy fails.
export function VerifyEmailBanner({ email, resendVerificationAction }: { email: string; resendVerificationAction: (form: FormData) => Promise<void> }) {
  return (
    <div
      role="note"
      aria-label="Confirm your email address"
      className="border-b border-sky-200 bg-sky-50 px-4 py-2 text-sm text-slate-900"
      data-testid="verify-email-banner"
    >
      <form action={resendVerificationAction} className="mx-auto flex max-w-6xl flex-wrap items-center justify-center gap-x-3 gap-y-1">
        <input type="hidden" name={FORM_TOKEN_FIELD} value={newFormToken()} />
        <p>
          <strong className="font-semibold">Confirm your email address</strong> to buy plans and create API keys: open the link we sent to{' '}
          <span className="break-all font-medium">{email}</span>.
        </p>
        <SubmitButton variant="secondary" size="sm" pendingLabel="Sending…">
          Resend the link
        </SubmitButton>
      </form>
    </div>
  );
}
