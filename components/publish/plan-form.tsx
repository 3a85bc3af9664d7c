'use client';

import { useActionState, useState } from 'react';
import { Field } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormState } from './form-state';
import type { PlanLimits } from '@/lib/publishing';
import { FormError } from '@/components/ui/alert';

export interface PlanValues {
  name: string;
  price: string;
  currency: string;
  queriesPerPeriod: string;
  requestsPerMinute: string;
}

const selectClass = 'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm';

// A plan's fields (docs/api.md §9.2). `idPrefix` keeps field ids unique when several plan forms share a page.
export function PlanForm({
  action,
  kbId,
  planId,
  initial,
  freeMax,
  formToken,
  submitLabel,
  idPrefix,
  note,
  limits,
}: {
  action: (state: FormState, formData: FormData) => Promise<FormState>;
  /** PLAN_LIMITS, passed by the page: a client component cannot import lib/. */
  limits: PlanLimits;
  kbId: string;
  planId?: string;
  initial: PlanValues;
  freeMax: number;
  formToken?: string;
  submitLabel: string;
  idPrefix: string;
  note?: string;
}) {
  const [state, formAction] = useActionState(action, { fieldErrors: {} });
  const [price, setPrice] = useState(initial.price);
  const e = state.fieldErrors;
  const free = price.trim() !== '' && Number(price.replace(/^[$€£]/, '')) === 0;
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <form action={formAction} className="grid gap-4" noValidate>
      {formToken ? <input type="hidden" name="formToken" value={formToken} /> : null}
      <input type="hidden" name="kbId" value={kbId} />
      {planId ? <input type="hidden" name="planId" value={planId} /> : null}
      <FormError message={state.message} />
      {note ? <p className="text-sm text-slate-700">{note}</p> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id={id('name')}
          label="Plan name"
          name="name"
          defaultValue={state.values?.name ?? initial.name}
          error={e.name}
          required
          maxLength={limits.name.max}
          placeholder="Starter"
        />
        <div className="grid grid-cols-[minmax(0,1fr)_6rem] gap-2">
          <Field
            id={id('price')}
            label="Monthly price"
            name="price"
            inputMode="decimal"
            value={price}
            onChange={(event) => setPrice(event.target.value)}
            error={e.price}
            required
            hint={free ? 'Free plan: no card needed.' : '0 for a free plan.'}
          />
          <div>
            <label htmlFor={id('currency')} className="block text-sm font-medium text-slate-800">
              Currency
            </label>
            <select id={id('currency')} name="currency" defaultValue={state.values?.currency ?? initial.currency} className={selectClass}>
              <option value="usd">USD</option>
              <option value="eur">EUR</option>
              <option value="gbp">GBP</option>
            </select>
          </div>
        </div>
        <Field
          id={id('queries')}
          label="Queries per month"
          name="queriesPerPeriod"
          inputMode="numeric"
          defaultValue={state.values?.queriesPerPeriod ?? initial.queriesPerPeriod}
          error={e.queriesPerPeriod}
          required
          hint={free ? `A free plan allows at most ${freeMax}.` : 'Answered queries with a citation count; abstentions are free.'}
        />
        <Field
          id={id('rpm')}
          label="Requests per minute"
          name="requestsPerMinute"
          inputMode="numeric"
          defaultValue={state.values?.requestsPerMinute ?? initial.requestsPerMinute}
          error={e.requestsPerMinute}
          required
        />
      </div>
      <div>
        <SubmitButton pendingLabel="Saving…">{submitLabel}</SubmitButton>
      </div>
    </form>
  );
}
