'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import type { PlanChoice } from '@/lib/billing';
import { formatMonthlyPrice, plural } from '@/lib/platform/format';
import type { PlanView } from '@/lib/subscriptions';

type PlanOption = Pick<PlanView, 'id' | 'name' | 'priceCents' | 'currency' | 'queriesPerPeriod'>;

// The plan picker (docs/api.md §5.4), a GET form to the confirmation page. Nothing is chosen until the buyer picks, so
// no change is ever one press away; `required` covers the time before the script has loaded.
export function PlanChangeForm({
  action,
  current,
  choices,
  renewal,
}: {
  action: string;
  current: PlanOption;
  choices: (PlanOption & Pick<PlanChoice, 'direction'>)[];
  /** When a downgrade takes effect. */
  renewal: string;
}) {
  const [chosen, setChosen] = useState<string | null>(null);
  const rows = [...choices, { ...current, direction: 'current' as const }].sort((a, b) => a.queriesPerPeriod - b.queriesPerPeriod);
  const terms = (plan: PlanOption) => `${formatMonthlyPrice(plan.priceCents, plan.currency)}, ${plural(plan.queriesPerPeriod, 'query', 'queries')}`;
  return (
    <form action={action} method="get" className="mt-3">
      <fieldset>
        <legend className="text-sm text-slate-700">
          Choose a new plan. An upgrade takes effect at once (queries used so far carry over); a downgrade takes effect at the next renewal, {renewal}. You
          confirm on the next page.
        </legend>
        <div className="mt-3 grid gap-2 sm:grid-cols-2">
          {rows.map((plan) =>
            plan.direction === 'current' ? (
              <div
                key={plan.id}
                className="flex items-start gap-3 rounded-md border border-dashed border-slate-300 bg-slate-50 p-3"
                data-testid="current-plan-choice"
              >
                <input type="radio" name="plan" value={plan.id} disabled aria-describedby={`current-${plan.id}`} className="mt-1" id={`plan-${plan.id}`} />
                <label htmlFor={`plan-${plan.id}`} className="text-sm">
                  <span className="font-medium text-slate-900">{plan.name}</span> — {terms(plan)}
                  <span id={`current-${plan.id}`} className="block font-medium text-slate-700">
                    Your current plan
                  </span>
                </label>
              </div>
            ) : (
              <label
                key={plan.id}
                className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-200 p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input type="radio" name="plan" value={plan.id} required checked={chosen === plan.id} onChange={() => setChosen(plan.id)} className="mt-1" />
                <span className="text-sm">
                  <span className="font-medium text-slate-900">{plan.name}</span> — {terms(plan)}
                  <span className="block text-slate-600">{plan.direction === 'upgrade' ? 'Upgrade: now' : `Downgrade: from ${renewal}`}</span>
                </span>
              </label>
            ),
          )}
        </div>
      </fieldset>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={chosen === null} aria-describedby={chosen === null ? 'plan-change-hint' : undefined}>
          Review plan change
        </Button>
        {chosen === null ? (
          <p id="plan-change-hint" className="text-sm text-slate-600">
            Pick a plan above to review the change.
          </p>
        ) : null}
      </div>
    </form>
  );
}
