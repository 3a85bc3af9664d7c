import { sql } from 'drizzle-orm';
import { getDatabaseHandle } from '@/lib/platform/db';
import { getRateLimiter, probeRateLimiter } from '@/lib/limits';

export interface Health {
  status: 'ok' | 'degraded';
  database: { ok: boolean; kind?: 'pglite' | 'postgres'; latencyMs?: number };
  rateLimiter: string;
  /**
   * False while the limiter's store (Redis, Upstash) cannot be reached: every limit then passes (fail-open, logged),
   * sign-in and sign-up limits included. Not a 503: every instance shares the store, and taking them all out of a load
   * balancer would turn a weaker service into none.
   */
  rateLimiterReachable: boolean;
}

/** Readiness: is the database reachable (one trivial query, 2 s budget)? Never exposes connection details. */
export async function checkHealth(): Promise<Health> {
  const started = Date.now();
  const limiter = getRateLimiter();
  const rateLimiter = limiter.kind;
  const reachable = probeRateLimiter(limiter);
  try {
    const handle = await Promise.race([
      getDatabaseHandle(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('database open timed out')), 2_000)),
    ]);
    await handle.db.execute(sql`select 1`);
    return { status: 'ok', database: { ok: true, kind: handle.kind, latencyMs: Date.now() - started }, rateLimiter, rateLimiterReachable: await reachable };
  } catch {
    return { status: 'degraded', database: { ok: false }, rateLimiter, rateLimiterReachable: await reachable };
  }
}
