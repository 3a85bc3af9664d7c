'use client';

import { useActionState } from 'react';
import { Field, TextAreaField as TextArea } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormState } from './form-state';
import type { ProfileLimits } from '@/lib/publishing';
import { FormError } from '@/components/ui/alert';

export interface ProfileValues {
  name: string;
  slug: string;
  websiteUrl: string;
  bio: string;
  contactEmail: string;
}

/** Create or edit the publisher profile; the server's per-field messages appear under each field. */
export function ProfileForm({
  action,
  initial,
  formToken,
  submitLabel,
  limits,
}: {
  action: (state: FormState, formData: FormData) => Promise<FormState>;
  initial: ProfileValues;
  /** lib/publishing/rules.ts's PROFILE_LIMITS, passed by the page (this client component cannot import lib/). */
  limits: ProfileLimits;
  formToken?: string;
  submitLabel: string;
}) {
  const [state, formAction] = useActionState(action, { fieldErrors: {} });
  const e = state.fieldErrors;
  return (
    <form action={formAction} className="grid max-w-2xl gap-5" noValidate>
      {formToken ? <input type="hidden" name="formToken" value={formToken} /> : null}
      <FormError message={state.message} />
      <Field
        label="Publisher name"
        name="name"
        defaultValue={state.values?.name ?? initial.name}
        error={e.name}
        required
        maxLength={limits.name.max}
        autoComplete="organization"
        hint="Shown on your public page and on every listing."
      />
      <Field
        label="Public address"
        name="slug"
        defaultValue={state.values?.slug ?? initial.slug}
        error={e.slug}
        required
        maxLength={limits.slug.max}
        hint="Lower-case letters, digits and hyphens: your page will be /publishers/<address>."
        autoCapitalize="none"
        spellCheck={false}
      />
      <Field
        label="Website (optional)"
        name="websiteUrl"
        type="url"
        defaultValue={state.values?.websiteUrl ?? initial.websiteUrl}
        error={e.websiteUrl}
        maxLength={limits.websiteUrl.max}
        placeholder="https://example.org"
      />
      <TextArea
        label="Short bio (optional)"
        name="bio"
        defaultValue={state.values?.bio ?? initial.bio}
        error={e.bio}
        maxLength={limits.bio.max}
        rows={4}
        hint={`Up to ${limits.bio.max} characters, shown on your public page.`}
      />
      <Field
        label="Contact email for the operator"
        name="contactEmail"
        type="email"
        defaultValue={state.values?.contactEmail ?? initial.contactEmail}
        error={e.contactEmail}
        required
        maxLength={limits.contactEmail.max}
        autoComplete="email"
        hint="Never shown publicly. The marketplace operator uses it to reach you."
      />
      <div>
        <SubmitButton pendingLabel="Saving…">{submitLabel}</SubmitButton>
      </div>
    </form>
  );
}
