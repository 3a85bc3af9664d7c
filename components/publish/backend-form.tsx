'use client';

import { useActionState, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Field } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormState } from './form-state';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random secret of `length` base62 characters from the browser's CSPRNG (rejection sampling keeps it uniform). */
export function generateSecret(prefix: string, length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return prefix + out;
}

/**
 * The http backend's settings. The infrastructure key and signing secret are write-only: once stored they are never
 * shown again, and a blank field keeps the stored value. Before any is stored, the browser generates both (the
 * publisher copies them into their endpoint's configuration), and the fields keep what they hold across a refused
 * save, so nothing has to be typed twice. The values never travel back from the server.
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
  const [infraKey, setInfraKey] = useState('');
  const [signingSecret, setSigningSecret] = useState('');
  // Generated after hydration, in the browser only: a value drawn during the server render would be sent in the page
  // and then differ from the one the browser draws while hydrating.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- once, after hydration: the browser's CSPRNG is there
    if (!hasInfraKey) setInfraKey((now) => now || generateSecret('infra_', 32));
    if (!hasSigningSecret) setSigningSecret((now) => now || generateSecret('whsec_', 40));
  }, [hasInfraKey, hasSigningSecret]);
  // New secrets generated over stored ones must be shown too, or there is nothing to copy into the endpoint.
  const [regenerated, setRegenerated] = useState(false);
  const keyStored = hasInfraKey && !regenerated;
  const secretStored = hasSigningSecret && !regenerated;
  const e = state.fieldErrors;
  const stored = 'A value is stored. Leave blank to keep it; it is never shown again.';
  const generated = 'Generated in your browser: copy it into your endpoint’s configuration before saving. Shown only until it is saved.';
  return (
    // The secrets are controlled fields: React's reset after a refused save would otherwise empty them.
    <form action={formAction} onReset={(event) => event.preventDefault()} className="grid max-w-2xl gap-4" noValidate>
      <input type="hidden" name="kbId" value={kbId} />
      {state.message ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-950">
          {state.message}
        </p>
      ) : null}
      <Field
        label="Endpoint URL"
        name="endpointUrl"
        type="url"
        defaultValue={state.values?.endpointUrl ?? endpointUrl}
        error={e.endpointUrl}
        required
        placeholder="https://api.example.com/almanac"
        hint="HTTPS. Almanac POSTs each question here."
      />
      <Field
        label="Infrastructure key"
        name="infraKey"
        type={keyStored ? 'password' : 'text'}
        autoComplete="off"
        spellCheck={false}
        value={infraKey}
        onChange={(event) => setInfraKey(event.target.value)}
        error={e.infraKey}
        hint={keyStored ? stored : `Sent as Authorization: Bearer …; at least 16 characters. ${generated}`}
        required={!keyStored}
      />
      {!keyStored && infraKey ? <CopyButton value={infraKey} label="Copy the infrastructure key" className="-mt-2" /> : null}
      <Field
        label="Signing secret"
        name="signingSecret"
        type={secretStored ? 'password' : 'text'}
        autoComplete="off"
        spellCheck={false}
        value={signingSecret}
        onChange={(event) => setSigningSecret(event.target.value)}
        error={e.signingSecret}
        hint={secretStored ? stored : `Signs every call (Almanac-Signature); at least 32 characters. ${generated}`}
        required={!secretStored}
      />
      {!secretStored && signingSecret ? <CopyButton value={signingSecret} label="Copy the signing secret" className="-mt-2" /> : null}
      <div>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            setInfraKey(generateSecret('infra_', 32));
            setSigningSecret(generateSecret('whsec_', 40));
            setRegenerated(true);
          }}
        >
          {hasInfraKey || hasSigningSecret ? 'Generate new secrets (replaces the stored ones on save)' : 'Generate new secrets'}
        </Button>
      </div>
      <Field
        label="Timeout (ms)"
        name="timeoutMs"
        type="number"
        inputMode="numeric"
        min={100}
        max={120000}
        defaultValue={state.values?.timeoutMs ?? String(timeoutMs)}
        error={e.timeoutMs}
        hint="No answer within this time is publisher_timeout."
      />
      <div>
        <SubmitButton pendingLabel="Saving…">Save backend</SubmitButton>
      </div>
    </form>
  );
}
