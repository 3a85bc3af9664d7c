import { sql } from 'drizzle-orm';
import type { Database, Transaction } from '@/db/client';
import { getDb } from '@/lib/platform/db';
import { randomBase62 } from '@/lib/platform/ids';
import { log } from '@/lib/platform/log';
import { processSingleton } from '@/lib/platform/singleton';
import { latencyBucketOf, LATENCY_BUCKETS_MS, PREVIEW_OUTCOME, statsOutcomeOf } from '@/lib/publishing';

/**
 * Off-hot-path bookkeeping of the gateway (query volume, daily usage, query log, publishers' analytics, keys' last
 * use): requests append to buffers and one flusher per process writes them every second as INCREMENTS in one
 * transaction, so instances add up. A failed flush keeps its batch and retries it under the same id: the transaction
 * records the id first (usage_flushes), so a batch whose commit reached the server though its reply was lost is
 * skipped, never added twice. Shutdown flushes first.
 */
export interface QueryRecord {
  requestId: string;
  kbId: string;
  subscriptionId: string;
  keyId: string | null;
  status: number;
  errorCode: string | null;
  abstained?: boolean;
  tokensUsed: number;
  latencyMs: number;
  at: Date;
  keyLastUsedAt?: Date | null;
}

const LAST_USED_RESOLUTION_MS = 60_000;
const DAY_MS = 86_400_000;
const FLUSH_INTERVAL_MS = 1_000;
const MAX_BUFFERED_LOG_ROWS = 2_000;
/** Applied batch ids are forgotten after a day (a retry comes within seconds), checked every ten minutes or so. */
const FLUSH_IDS_KEPT = '1 day';
const FORGET_EVERY_FLUSHES = 600;

interface Buffers {
  volume: Map<string, number>;
  daily: Map<string, { subscriptionId: string; day: string; queries: number; tokens: number }>;
  logRows: QueryRecord[];
  lastUsed: Map<string, Date>;
  stats: Map<string, { kbId: string; day: string; outcome: string; count: number; buckets: number[] }>;
}

const emptyBuffers = (): Buffers => ({ volume: new Map(), daily: new Map(), logRows: [], lastUsed: new Map(), stats: new Map() });

export class UsageRecorder {
  private buffers = emptyBuffers();
  /** A batch whose flush failed, retried under its id before anything newer. */
  private failed: { id: string; batch: Buffers } | null = null;
  private flushes = 0;
  private lastUsedQueuedAt = new Map<string, number>();
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private dayStartMs = Number.NaN;
  private day = '';

  constructor(private readonly database: () => Promise<Database> = getDb) {}

  start(): this {
    if (!this.timer) {
      this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  record(entry: QueryRecord): void {
    const b = this.buffers;
    if (entry.status === 200 && !entry.abstained) {
      b.volume.set(entry.kbId, (b.volume.get(entry.kbId) ?? 0) + 1);
      const day = this.utcDayOf(entry.at.getTime());
      const key = `${entry.subscriptionId}|${day}`;
      const row = b.daily.get(key) ?? { subscriptionId: entry.subscriptionId, day, queries: 0, tokens: 0 };
      row.queries += 1;
      row.tokens += entry.tokensUsed;
      b.daily.set(key, row);
    }
    b.logRows.push(entry);
    this.noteStats({ ...entry, outcome: statsOutcomeOf(entry) });
    if (entry.keyId) this.noteKeyUse(entry.keyId, entry.at, entry.keyLastUsedAt ?? null);
    if (b.logRows.length >= MAX_BUFFERED_LOG_ROWS) void this.flush();
  }

  /** A free preview (docs/api.md §10.6): only the publisher's daily count of previews and its backend latency. */
  recordPreview(entry: { kbId: string; latencyMs: number; at: Date }): void {
    this.noteStats({ kbId: entry.kbId, latencyMs: entry.latencyMs, at: entry.at, outcome: PREVIEW_OUTCOME });
  }

  recordRefusal(entry: { kbId: string; code: string; at: Date }): void {
    this.noteStats({ kbId: entry.kbId, latencyMs: 0, at: entry.at, outcome: entry.code, noLatency: true });
  }

  private utcDayOf(ms: number): string {
    if (!(ms >= this.dayStartMs && ms < this.dayStartMs + DAY_MS)) {
      this.dayStartMs = ms - (ms % DAY_MS);
      this.day = new Date(this.dayStartMs).toISOString().slice(0, 10);
    }
    return this.day;
  }

  private noteStats(entry: Pick<QueryRecord, 'kbId' | 'latencyMs' | 'at'> & { outcome: string; noLatency?: boolean }): void {
    const day = this.utcDayOf(entry.at.getTime());
    const { outcome } = entry;
    const key = `${entry.kbId}|${day}|${outcome}`;
    let row = this.buffers.stats.get(key);
    if (!row) {
      row = { kbId: entry.kbId, day, outcome, count: 0, buckets: new Array<number>(LATENCY_BUCKETS_MS.length).fill(0) };
      this.buffers.stats.set(key, row);
    }
    row.count += 1;
    if (!entry.noLatency) row.buckets[latencyBucketOf(entry.latencyMs)]! += 1;
  }

  private noteKeyUse(keyId: string, at: Date, stored: Date | null): void {
    const queued = this.lastUsedQueuedAt.get(keyId);
    const known = Math.max(queued ?? 0, stored?.getTime() ?? 0);
    if (at.getTime() - known < LAST_USED_RESOLUTION_MS) return;
    this.lastUsedQueuedAt.set(keyId, at.getTime());
    this.buffers.lastUsed.set(keyId, at);
  }

  pending(): number {
    const size = (b: Buffers) => b.logRows.length + b.volume.size + b.daily.size + b.lastUsed.size + b.stats.size;
    return size(this.buffers) + (this.failed ? size(this.failed.batch) : 0);
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushOnce());
    return this.flushing;
  }

  private async flushOnce(): Promise<void> {
    if (this.failed && !(await this.apply(this.failed.id, this.failed.batch))) return;
    this.failed = null;
    if (this.pending() === 0) return;
    const batch = this.buffers;
    this.buffers = emptyBuffers();
    const id = randomBase62(16);
    if (!(await this.apply(id, batch))) this.failed = { id, batch };
  }

  /** Writes one batch in one transaction, unless a batch of this id was written already; false when it failed. */
  private async apply(id: string, batch: Buffers): Promise<boolean> {
    try {
      const db = await this.database();
      const forget = ++this.flushes % FORGET_EVERY_FLUSHES === 0;
      await db.transaction(async (tx) => {
        const fresh = await tx.execute(sql`insert into usage_flushes (id) values (${id}) on conflict (id) do nothing returning id`);
        if (fresh.rows.length === 0) return;
        if (forget) await tx.execute(sql`delete from usage_flushes where created_at < now() - ${FLUSH_IDS_KEPT}::interval`);
        for (const [kbId, n] of batch.volume) {
          await tx.execute(sql`update knowledge_bases set query_volume = query_volume + ${n} where id = ${kbId}`);
        }
        for (const row of batch.daily.values()) {
          await tx.execute(sql`
            insert into usage_daily (subscription_id, day, queries, tokens)
            values (${row.subscriptionId}, ${row.day}::date, ${row.queries}, ${row.tokens})
            on conflict (subscription_id, day) do update
              set queries = usage_daily.queries + excluded.queries, tokens = usage_daily.tokens + excluded.tokens`);
        }
        if (batch.logRows.length > 0) await insertLogRows(tx, batch.logRows);
        for (const row of batch.stats.values()) {
          // Increments, element by element for the histogram, so instances and flushes add up.
          await tx.execute(sql`
            insert into kb_stats_daily (kb_id, day, outcome, count, latency_buckets)
            values (${row.kbId}, ${row.day}::date, ${row.outcome}, ${row.count}, ${sql.param(row.buckets)}::int[])
            on conflict (kb_id, day, outcome) do update set
              count = kb_stats_daily.count + excluded.count,
              latency_buckets = (
                select array_agg(coalesce(a, 0) + coalesce(b, 0) order by i)
                from unnest(kb_stats_daily.latency_buckets, excluded.latency_buckets) with ordinality as t(a, b, i))`);
        }
        for (const [keyId, at] of batch.lastUsed) {
          await tx.execute(sql`
            update api_keys set last_used_at = ${at.toISOString()}::timestamptz
            where id = ${keyId} and (last_used_at is null or last_used_at < ${at.toISOString()}::timestamptz)`);
        }
      });
      return true;
    } catch (err) {
      log.error({ err, pending: this.pending() }, 'usage flush failed; the batch is kept and retried under its id');
      return false;
    }
  }
}

/** One INSERT … SELECT FROM unnest(arrays): ten parameters whatever the batch's size, on the server's one thread. */
async function insertLogRows(tx: Transaction, rows: QueryRecord[]): Promise<void> {
  const n = rows.length;
  const columns = {
    requestId: new Array<string>(n),
    kbId: new Array<string>(n),
    subscriptionId: new Array<string>(n),
    keyId: new Array<string | null>(n),
    status: new Array<number>(n),
    errorCode: new Array<string | null>(n),
    abstained: new Array<boolean>(n),
    tokensUsed: new Array<number>(n),
    latencyMs: new Array<number>(n),
    createdAt: new Array<string>(n),
  };
  rows.forEach((r, i) => {
    columns.requestId[i] = r.requestId;
    columns.kbId[i] = r.kbId;
    columns.subscriptionId[i] = r.subscriptionId;
    columns.keyId[i] = r.keyId;
    columns.status[i] = r.status;
    columns.errorCode[i] = r.errorCode;
    columns.abstained[i] = r.abstained ?? false;
    columns.tokensUsed[i] = r.tokensUsed;
    columns.latencyMs[i] = r.latencyMs;
    columns.createdAt[i] = r.at.toISOString();
  });
  // sql.param: an array interpolated directly would be spread into one parameter per element.
  const p = (values: unknown[]) => sql.param(values);
  await tx.execute(sql`
    insert into query_log (request_id, kb_id, subscription_id, key_id, status, error_code, abstained, tokens_used, latency_ms, created_at)
    select * from unnest(${p(columns.requestId)}::text[], ${p(columns.kbId)}::text[], ${p(columns.subscriptionId)}::text[],
      ${p(columns.keyId)}::text[], ${p(columns.status)}::int[], ${p(columns.errorCode)}::text[], ${p(columns.abstained)}::bool[], ${p(columns.tokensUsed)}::int[],
      ${p(columns.latencyMs)}::int[], ${p(columns.createdAt)}::timestamptz[])`);
}

function installShutdownFlush(recorder: UsageRecorder): void {
  let shuttingDown: Promise<void> | undefined;
  const flushForExit = () => (shuttingDown ??= recorder.flush().catch(() => {}));
  // Next's own SIGTERM handler calls process.exit once the server has closed; hold that exit (at most 5 s) until
  // the last batch is written, so counts of requests answered just before shutdown are not lost.
  const onSignal = (signal: NodeJS.Signals) => {
    const pendingFlush = flushForExit();
    // Alone on this signal (no framework handler): the default would have been to exit, so exit after the flush.
    if (process.listenerCount(signal) === 0) {
      void pendingFlush.finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    }
    const originalExit = process.exit.bind(process);
    let exiting = false;
    process.exit = ((code?: number) => {
      if (exiting) return originalExit(code);
      exiting = true;
      void Promise.race([pendingFlush.then(() => recorder.flush()), new Promise((r) => setTimeout(r, 5_000))]).finally(() => originalExit(code));
    }) as typeof process.exit;
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  process.on('beforeExit', () => {
    if (recorder.pending() > 0) void recorder.flush();
  });
}

export function getUsageRecorder(): UsageRecorder {
  return processSingleton('usage-recorder', () => {
    const recorder = new UsageRecorder().start();
    installShutdownFlush(recorder);
    return recorder;
  });
}
