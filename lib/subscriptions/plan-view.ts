import { plans } from '@/db/schema';

/** A plan as pages, the CLI and the public detail show it: one shape, its columns and its mapper, so a field is added once. */
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
