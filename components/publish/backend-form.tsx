'use client';

import { useActionState } from 'react';
import { Field } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormState } from './form-state';

/**
 * The http backend's settings. The infrastructure key and signing secret are write-only: the fields start empty
 * whatever is stored, and a blank field keeps the stored value.
 */
export function BackendForm({
  action,
  kbId,
  endpointUrl,
  timeoutMs,
  hasInfraKey,
  hasSigningSecret,
}: {
  action: (state: FormState, formData: FormData) => Promise<FormState>;
  kbId: string;
  endpointUrl: string;
  timeoutMs: number;
  hasInfraKey: boolean;
  hasSigningSecret: boolean;
}) {
  const [state, formAction] = useActionState(action, { fieldErrors: {} });
  const e = state.fieldErrors;
  const stored = 'A value is stored. Leave blank to keep it; it is never shown again.';
  return (
    <form action={formAction} className="grid max-w-2xl gap-4" noValidate>
      <input type="hidden" name="kbId" value={kbId} />
      {state.message ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-950">
          {state.message}
        </p>
      ) : null}
      <Field label="Endpoint URL" name="endpointUrl" type="url" defaultValue={state.values?.endpointUrl ?? endpointUrl} error={e.endpointUrl} required placeholder="https://api.example.com/almanac" hint="HTTPS. Almanac POSTs each question here." />
      <Field
        label="Infrastructure key"
        name="infraKey"
        type="password"
        autoComplete="off"
        error={e.infraKey}
        hint={hasInfraKey ? stored : 'Sent as Authorization: Bearer …; at least 16 characters.'}
        required={!hasInfraKey}
      />
      <Field
        label="Signing secret"
        name="signingSecret"
        type="password"
        autoComplete="off"
        error={e.signingSecret}
        hint={hasSigningSecret ? stored : 'Signs every call (Almanac-Signature); at least 32 characters.'}
        required={!hasSigningSecret}
      />
      <Field label="Timeout (ms)" name="timeoutMs" type="number" inputMode="numeric" min={100} max={120000} defaultValue={state.values?.timeoutMs ?? String(timeoutMs)} error={e.timeoutMs} hint="No answer within this time is publisher_timeout." />
      <div>
        <SubmitButton pendingLabel="Saving…">Save backend</SubmitButton>
      </div>
    </form>
  );
}
