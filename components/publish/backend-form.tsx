'use client';

import { useActionState, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Field } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormState } from './form-state';
import { FormError } from '@/components/ui/alert';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 from the browser's CSPRNG; rejection sampling keeps it uniform. */
export function generateSecret(prefix: string, length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return prefix + out;
}

// The http backend's settings (docs/api.md §6.6). The key and signing secret are write-only: never shown once stored,
// never sent back by the server, and a blank field keeps the stored value. The browser generates new ones.
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
  // After hydration: a value drawn during the server render would be sent in the page and differ from the browser's.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- once, after hydration: the browser's CSPRNG is there
    if (!hasInfraKey) setInfraKey((now) => now || generateSecret('infra_', 32));
    if (!hasSigningSecret) setSigningSecret((now) => now || generateSecret('whsec_', 40));
  }, [hasInfraKey, hasSigningSecret]);
  const [regenerated, setRegenerated] = useState(false);
  const keyStored = hasInfraKey && !regenerated;
  const secretStored = hasSigningSecret && !regenerated;
  const e = state.fieldErrors;
  const stored = 'A value is stored. Leave blank to keep it; it is never shown again.';
  const generated = 'Generated in your browser: copy it into your endpoint’s configuration before saving. Shown only until it is saved.';
  return (
    // React's reset after a refused save would otherwise empty the controlled secrets.
    <form action={formAction} onReset={(event) => event.preventDefault()} className="grid max-w-2xl gap-4" noValidate>
      <input type="hidden" name="kbId" value={kbId} />
      <FormError message={state.message} />
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
