import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, date, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts, createdAt, updatedAt } from './columns';
import { subscriptions } from './subscriptions';

/**
 * Metering: the exact per-period quota counter, usage alerts and their webhooks, and the daily aggregates and query
 * log that charts and analytics read (written off the hot path).
 */

/**
 * Queries used per subscription and billing period. The gateway reserves a unit with a conditional
 * UPDATE (`used < cap`) before routing and gives it back when the answer fails, so the count is exact.
 */
export const usagePeriods = pgTable(
  'usage_periods',
  {
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    periodStart: ts('period_start').notNull(),
    periodEnd: ts('period_end').notNull(),
    used: integer('used').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.periodStart] })],
);

/**
 * Usage alerts sent (docs/api.md §11.4): one row per subscription, period and threshold (80 or 100 percent of the cap).
 * The insert is the "once": whoever inserts the row enqueues the email and webhook; everyone else finds it there.
 */
export const usageAlerts = pgTable(
  'usage_alerts',
  {
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    periodStart: ts('period_start').notNull(),
    threshold: integer('threshold').notNull(),
    /** The event id receivers deduplicate on (`evt_…`), the same in the email's job and every webhook attempt. */
    eventId: text('event_id').notNull(),
    used: integer('used').notNull(),
    cap: integer('cap').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.periodStart, t.threshold] }), uniqueIndex('usage_alerts_event_key').on(t.eventId)],
);

/**
 * The buyer's usage-alert webhook for one subscription: an http(s) URL (SSRF rules of lib/platform/ssrf-guard.ts) and
 * the signing secret, AES-256-GCM-encrypted (lib/platform/crypto.ts), shown to the buyer once.
 */
export const alertWebhooks = pgTable('alert_webhooks', {
  subscriptionId: text('subscription_id')
    .primaryKey()
    .references(() => subscriptions.id, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  secretCiphertext: text('secret_ciphertext').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Successful queries per subscription and UTC day, for usage charts. */
export const usageDaily = pgTable(
  'usage_daily',
  {
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    queries: integer('queries').notNull().default(0),
    tokens: bigint('tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.day] })],
);

/** One row per query that reached routing (success or publisher failure); written off the hot path. */
export const queryLog = pgTable(
  'query_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestId: text('request_id').notNull(),
    kbId: text('kb_id').notNull(),
    subscriptionId: text('subscription_id'),
    keyId: text('key_id'),
    status: integer('status').notNull(),
    errorCode: text('error_code'),
    /** A 200 with no citations: the knowledge base had nothing relevant, so it was not counted (docs/api.md §3.7). */
    abstained: boolean('abstained').notNull().default(false),
    tokensUsed: integer('tokens_used').notNull().default(0),
    latencyMs: integer('latency_ms').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('query_log_kb_idx').on(t.kbId, t.createdAt), index('query_log_subscription_idx').on(t.subscriptionId, t.createdAt)],
);

/**
 * Daily aggregates per knowledge base and outcome (`answered`, `abstained` or an error code), written off the hot
 * path by the gateway's usage recorder. No question text and no buyer: publishers' analytics read only this.
 * `latency_buckets[i]` counts backend latencies up to LATENCY_BUCKETS_MS[i] (lib/publishing/analytics.ts), so
 * p50/p95 can be merged across days.
 */
export const kbStatsDaily = pgTable(
  'kb_stats_daily',
  {
    kbId: text('kb_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    outcome: text('outcome').notNull(),
    count: integer('count').notNull().default(0),
    latencyBuckets: integer('latency_buckets')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
  },
  (t) => [primaryKey({ columns: [t.kbId, t.day, t.outcome] })],
);
