import { plans } from '@/db/schema';

/**
 * A plan as pages, the CLI and the public detail show it: what a subscription buys. The one shape, its columns for
 * a select and its mapper, so a new plan field is added in one place.
 */
export interface PlanView {
  id: string;
  name: string;
  priceCents: number;
  currency: string;
  queriesPerPeriod: number;
  requestsPerMinute: number;
}

export const planViewColumns = {
  id: plans.id,
  name: plans.name,
  priceCents: plans.priceCents,
  currency: plans.currency,
  queriesPerPeriod: plans.queriesPerPeriod,
  requestsPerMinute: plans.requestsPerMinute,
};

export function toPlanView(row: PlanView): PlanView {
  return {
    id: row.id,
    name: row.name,
    priceCents: row.priceCents,
    currency: row.currency,
    queriesPerPeriod: row.queriesPerPeriod,
    requestsPerMinute: row.requestsPerMinute,
  };
}
