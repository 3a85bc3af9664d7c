import { sql } from 'drizzle-orm';
import { boolean, index, pgEnum, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts, createdAt, updatedAt } from './columns';
import { users } from './accounts';
import { knowledgeBases, plans } from './catalog';

/** Buying: a subscription is one buyer's plan of one knowledge base, with its billing period. */

export const keyModeEnum = pgEnum('key_mode', ['live', 'test']);
/**
 * active: paid and inside its period. past_due: a renewal is unpaid (access suspended until paid).
 * cancelled: ended by the buyer (effective at period end) or by Stripe. expired: period ended without renewal.
 * incomplete: checkout started, not yet paid (no access, no key).
 */
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
    /** Purchase instant: periods are computed from it so Jan 31 → Feb 28 → Mar 31 stays exact. */
    periodAnchorAt: ts('period_anchor_at').notNull(),
    currentPeriodStart: ts('current_period_start').notNull(),
    currentPeriodEnd: ts('current_period_end').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    cancelledAt: ts('cancelled_at'),
    /**
     * The cancellation at period end came from the publisher unpublishing the listing, not from the buyer: publishing
     * it again resumes exactly these renewals (lib/publishing/listings.ts).
     */
    cancelledByUnpublish: boolean('cancelled_by_unpublish').notNull().default(false),
    endedAt: ts('ended_at'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    stripeCheckoutSessionId: text('stripe_checkout_session_id'),
    /**
     * A downgrade the buyer chose: this plan replaces `plan_id` when the next period starts (period roll-over, or
     * Stripe's next invoice), so the smaller cap never sits below what this period already used. Null: none.
     */
    pendingPlanId: text('pending_plan_id').references(() => plans.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('subscriptions_user_idx').on(t.userId),
    index('subscriptions_kb_idx').on(t.kbId, t.status),
    uniqueIndex('subscriptions_stripe_key').on(t.stripeSubscriptionId),
    uniqueIndex('subscriptions_checkout_key').on(t.stripeCheckoutSessionId),
    // One live subscription per buyer and knowledge base (docs/api.md §5.2).
    uniqueIndex('subscriptions_one_active_key')
      .on(t.userId, t.kbId)
      .where(sql`status in ('active', 'past_due', 'incomplete')`),
  ],
);

export type Subscription = typeof subscriptions.$inferSelect;
