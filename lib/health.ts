import { sql } from 'drizzle-orm';
import { getDatabaseHandle } from '@/lib/platform/db';
import { getRateLimiter } from '@/lib/limits';

export interface Health {
  status: 'ok' | 'degraded';
  database: { ok: boolean; kind?: 'pglite' | 'postgres'; latencyMs?: number };
  rateLimiter: string;
}

/** Readiness: is the database reachable (one trivial query, 2 s budget)? Never exposes connection details. */
export async function checkHealth(): Promise<Health> {
  const started = Date.now();
  const rateLimiter = getRateLimiter().kind;
  try {
    const handle = await Promise.race([
      getDatabaseHandle(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('database open timed out')), 2_000)),
    ]);
    await handle.db.execute(sql`select 1`);
    return { status: 'ok', database: { ok: true, kind: handle.kind, latencyMs: Date.now() - started }, rateLimiter };
  } catch {
    return { status: 'degraded', database: { ok: false }, rateLimiter };
  }
}
