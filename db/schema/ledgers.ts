import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts, createdAt } from './columns';
import { publishers, knowledgeBases } from './catalog';
import { subscriptions } from './subscriptions';

// Ledgers (docs/api.md §9.3): append-only records of money and actions (Stripe events applied, publisher earnings, the
// audit log).

/** Recorded in the same transaction as the event's effect: a duplicate changes nothing. */
export const stripeEvents = pgTable(
  'stripe_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    /** Stripe's `created`, to ignore out-of-order deliveries. */
    eventCreatedAt: ts('event_created_at').notNull(),
    stripeSubscriptionId: text('stripe_subscription_id'),
    /** `applied`, or `ignored:<reason>`. */
    outcome: text('outcome').notNull().default('applied'),
    processedAt: ts('processed_at').notNull().defaultNow(),
  },
  (t) => [index('stripe_events_subscription_idx').on(t.stripeSubscriptionId, t.eventCreatedAt)],
);

// One row per paid period, written in the transaction that made it paid, so the unique key makes a replay change
// nothing. Amounts in the currency's minor unit; fee = PLATFORM_FEE_PERCENT.
export const earnings = pgTable(
  'earnings',
  {
    id: text('id').primaryKey(),
    publisherId: text('publisher_id')
      .notNull()
      .references(() => publishers.id, { onDelete: 'restrict' }),
    kbId: text('kb_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'restrict' }),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'restrict' }),
    planId: text('plan_id'),
    periodStart: ts('period_start').notNull(),
    periodEnd: ts('period_end').notNull(),
    grossCents: integer('gross_cents').notNull(),
    feeCents: integer('fee_cents').notNull(),
    netCents: integer('net_cents').notNull(),
    currency: text('currency').notNull(),
    source: text('source').notNull(),
    /** The Stripe event or invoice id; the subscription id in test mode. */
    sourceEvent: text('source_event').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('earnings_period_key').on(t.subscriptionId, t.periodStart),
    index('earnings_publisher_idx').on(t.publisherId, t.periodStart),
    index('earnings_kb_idx').on(t.kbId, t.periodStart),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    actorUserId: text('actor_user_id'),
    actorKind: text('actor_kind').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    metadata: jsonb('metadata')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_target_idx').on(t.targetType, t.targetId), index('audit_log_actor_idx').on(t.actorUserId, t.createdAt)],
);
