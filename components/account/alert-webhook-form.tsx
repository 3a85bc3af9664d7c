'use client';

import { useActionState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';

export interface AlertWebhookFormState {
  /** Shown in this answer only, and only while `savedUrl` is still the webhook. */
  secret?: string;
  savedUrl?: string;
  error?: string;
  url?: string;
  tested?: { ok: boolean; text: string };
}

export type AlertWebhookAction = (previous: AlertWebhookFormState, formData: FormData) => Promise<AlertWebhookFormState>;

// The buyer's usage-alert webhook (docs/api.md §11.4); the signing secret appears once, in the answer.
export function AlertWebhookForm({ subscriptionId, currentUrl, save }: { subscriptionId: string; currentUrl: string | null; save: AlertWebhookAction }) {
  const [state, action] = useActionState<AlertWebhookFormState, FormData>(save, {});
  return (
    <form action={action} className="mt-4 space-y-3">
      <input type="hidden" name="subscriptionId" value={subscriptionId} />
      {state.secret && state.savedUrl === currentUrl ? (
        <Alert tone="success" title="Webhook saved. Copy the signing secret now: it is not shown again.">
          <code className="mt-1 block break-all rounded bg-white px-2 py-1 font-mono text-xs text-slate-900">{state.secret}</code>
          <span className="mt-1 block">Verify each delivery&apos;s Almanac-Signature header with it (see the API reference).</span>
        </Alert>
      ) : null}
      <Field
        label={currentUrl ? 'Replace the webhook URL (a new secret is made)' : 'Webhook URL'}
        name="url"
        type="url"
        inputMode="url"
        placeholder="https://example.com/hooks/almanac"
        defaultValue={state.error ? (state.url ?? '') : (currentUrl ?? '')}
        error={state.error}
        hint="https only; private and internal addresses are refused."
      />
      <SubmitButton variant="secondary" pendingLabel="Saving…">
        {currentUrl ? 'Save URL and new secret' : 'Save webhook'}
      </SubmitButton>
    </form>
  );
}

export function SendTestEventForm({ subscriptionId, send }: { subscriptionId: string; send: AlertWebhookAction }) {
  const [state, action] = useActionState<AlertWebhookFormState, FormData>(send, {});
  return (
    <form action={action} className="flex flex-wrap items-center gap-3">
      <input type="hidden" name="subscriptionId" value={subscriptionId} />
      <SubmitButton variant="secondary" size="sm" pendingLabel="Sending…">
        Send test event
      </SubmitButton>
      {state.tested ? (
        <p role={state.tested.ok ? 'status' : 'alert'} className={state.tested.ok ? 'text-sm text-emerald-800' : 'text-sm font-medium text-red-700'}>
          {state.tested.text}
        </p>
      ) : null}
    </form>
  );
}
