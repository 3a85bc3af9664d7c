import { sql } from 'drizzle-orm';
import { getDatabaseHandle } from '@/lib/platform/db';
import { jsonResponse } from '@/lib/platform/http';
import { queueDepth } from '@/lib/platform/jobs';
import { getRateLimiter, probeRateLimiter } from '@/lib/limits';

/** Liveness and readiness (docs/api.md §2.11): the readiness answer never exposes connection details. */
interface Health {
  status: 'ok' | 'degraded';
  database: { ok: boolean; kind?: 'pglite' | 'postgres'; latencyMs?: number };
  rateLimiter: string;
  /** False while the limiter's store is unreachable (limits then fail open). Not a 503: that would take every instance out. */
  rateLimiterReachable: boolean;
  /** The job queue, a table of the same database: jobs waiting or running. */
  queue: { ok: boolean; depth?: number };
}

const DATABASE_BUDGET_MS = 2_000;

async function checkHealth(): Promise<Health> {
  const started = Date.now();
  const limiter = getRateLimiter();
  const rateLimiter = limiter.kind;
  const reachable = probeRateLimiter(limiter);
  try {
    const handle = await Promise.race([
      getDatabaseHandle(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('database open timed out')), DATABASE_BUDGET_MS)),
    ]);
    await handle.db.execute(sql`select 1`);
    const database = { ok: true, kind: handle.kind, latencyMs: Date.now() - started };
    const queue = await queueDepth(handle).then(
      (byQueue) => ({ ok: true, depth: Object.values(byQueue).reduce((sum, n) => sum + n, 0) }),
      () => ({ ok: false }),
    );
    return { status: queue.ok ? 'ok' : 'degraded', database, rateLimiter, rateLimiterReachable: await reachable, queue };
  } catch {
    return { status: 'degraded', database: { ok: false }, rateLimiter, rateLimiterReachable: await reachable, queue: { ok: false } };
  }
}

const NO_STORE = { 'Cache-Control': 'no-store' };

/** Liveness: the process answers; no I/O, so a slow database never gets a live instance restarted. */
export function livenessResponse(): Response {
  return jsonResponse({ status: 'ok' }, { headers: NO_STORE });
}

export async function readinessResponse(): Promise<Response> {
  const health = await checkHealth();
  return jsonResponse(health, { status: health.status === 'ok' ? 200 : 503, headers: NO_STORE });
}
