import { sql } from 'drizzle-orm';
import { boolean, index, pgEnum, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts, createdAt, updatedAt } from './columns';
import { users } from './accounts';
import { knowledgeBases, plans } from './catalog';

// Buying (docs/api.md §5): a subscription is one buyer's plan of one knowledge base, with its billing period.

export const keyModeEnum = pgEnum('key_mode', ['live', 'test']);
/** Only `active` has access, a cancellation at period end included until the period ends. */
export const subscriptionStatusEnum = pgEnum('subscription_status', ['incomplete', 'active', 'past_due', 'cancelled', 'expired']);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    kbId: text('kb_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'restrict' }),
    planId: text('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'restrict' }),
    status: subscriptionStatusEnum('status').notNull().default('active'),
    mode: keyModeEnum('mode').notNull().default('live'),
    /** Periods are computed from it so Jan 31 → Feb 28 → Mar 31 stays exact. */
    periodAnchorAt: ts('period_anchor_at').notNull(),
    currentPeriodStart: ts('current_period_start').notNull(),
    currentPeriodEnd: ts('current_period_end').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    cancelledAt: ts('cancelled_at'),
    /** Not the buyer's cancellation: publishing the listing again resumes exactly these renewals. */
    cancelledByUnpublish: boolean('cancelled_by_unpublish').notNull().default(false),
    endedAt: ts('ended_at'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    stripeCheckoutSessionId: text('stripe_checkout_session_id'),
    /** A downgrade, applied at the next period start so the smaller cap never sits below what this period used. */
    pendingPlanId: text('pending_plan_id').references(() => plans.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('subscriptions_user_idx').on(t.userId),
    index('subscriptions_kb_idx').on(t.kbId, t.status),
    uniqueIndex('subscriptions_stripe_key').on(t.stripeSubscriptionId),
    uniqueIndex('subscriptions_checkout_key').on(t.stripeCheckoutSessionId),
    uniqueIndex('subscriptions_one_active_key')
      .on(t.userId, t.kbId)
      .where(sql`status in ('active', 'past_due', 'incomplete')`),
  ],
);

export type Subscription = typeof subscriptions.$inferSelect;
