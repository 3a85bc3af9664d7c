import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, date, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts, createdAt, updatedAt } from './columns';
import { subscriptions } from './subscriptions';

// Metering (docs/api.md §3.6): the exact per-period quota counter, usage alerts and their webhooks, and the daily
// aggregates and query log that charts and analytics read (written off the hot path).

/** Exact: a unit is reserved by a conditional UPDATE (`used < cap`) before routing and given back when the answer fails. */
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

/** The insert is the "once": whoever inserts the row enqueues the email and webhook; everyone else finds it there. */
export const usageAlerts = pgTable(
  'usage_alerts',
  {
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    periodStart: ts('period_start').notNull(),
    threshold: integer('threshold').notNull(),
    /** Receivers deduplicate on it: the same in the email and every webhook attempt. */
    eventId: text('event_id').notNull(),
    used: integer('used').notNull(),
    cap: integer('cap').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.periodStart, t.threshold] }), uniqueIndex('usage_alerts_event_key').on(t.eventId)],
);

export const alertWebhooks = pgTable('alert_webhooks', {
  subscriptionId: text('subscription_id')
    .primaryKey()
    .references(() => subscriptions.id, { onDelete: 'cascade' }),
  /** Checked against lib/platform/ssrf-guard.ts. */
  url: text('url').notNull(),
  /** AES-256-GCM (lib/platform/crypto.ts); shown to the buyer once. */
  secretCiphertext: text('secret_ciphertext').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Successful queries per UTC day. */
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

/**
 * The usage recorder's batches already applied (lib/gateway/usage-recorder.ts): a flush whose commit reached the server
 * but whose reply was lost is retried under the same id and skipped, so no increment is added twice. Kept a day.
 */
export const usageFlushes = pgTable('usage_flushes', {
  id: text('id').primaryKey(),
  createdAt: createdAt(),
});

/** One row per query that reached routing (success or publisher failure). */
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
    /** A 200 with no citations, not counted against the quota. */
    abstained: boolean('abstained').notNull().default(false),
    tokensUsed: integer('tokens_used').notNull().default(0),
    latencyMs: integer('latency_ms').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('query_log_kb_idx').on(t.kbId, t.createdAt), index('query_log_subscription_idx').on(t.subscriptionId, t.createdAt)],
);

// No question text and no buyer: publishers' analytics read only this. `latency_buckets[i]` counts latencies up to
// LATENCY_BUCKETS_MS[i] (lib/publishing/analytics.ts), so p50/p95 merge across days.
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
