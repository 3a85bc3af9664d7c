/**
 * Diagnostic: sequential (concurrency 1) latency of the gateway's parts against Postgres and the instant example
 * publisher — a trivial query, the cap reservation, the publisher call, and the whole gateway pipeline without HTTP.
 *   npx tsx bench/gateway/stages.ts
 */
import { sql } from 'drizzle-orm';
import { createScratchDatabase } from '../../test/support/scratch-database';

const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const scratch = await createScratchDatabase(`almanac_stages_${Math.random().toString(36).slice(2, 8)}`, ADMIN_URL);
Object.assign(process.env, { ALMANAC_SECRET: 'fake-stages-secret-0123456789abcdef', ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'true', LOG_LEVEL: 'warn', SEED_ON_START: 'false', DATABASE_URL: scratch.url });
try {
  const { openPostgres } = await import('@/db/client');
  const { prepareDatabase, useDatabase } = await import('@/lib/db');
  const f = await import('../../test/support/gateway-fixtures');
  const { handleGatewayRequest } = await import('@/lib/gateway');
  const { reserveQueryUnit } = await import('@/lib/quota');
  const { callHttpBackend } = await import('@/lib/publisher-http');
  const handle = await openPostgres(scratch.url, 20);
  await prepareDatabase(handle, { seed: false });
  useDatabase(handle);
  const p = await f.startExamplePublisher();
  const kb = await f.createHttpKnowledgeBase(handle.db, await f.createPublisher(handle.db), { endpointUrl: p.url, infraKey: p.infraKey, signingSecret: p.signingSecret });
  const k = await f.buyKey(handle.db, kb, { cap: 100_000_000, perMinute: 100_000_000 });
  const time = async (name: string, fn: () => Promise<unknown>, n = 300) => {
    for (let i = 0; i < 20; i++) await fn();
    const xs: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await fn();
      xs.push(performance.now() - t);
    }
    xs.sort((a, b) => a - b);
    console.log(`${name.padEnd(12)} p50 ${xs[n >> 1].toFixed(2)} ms   p90 ${xs[Math.floor(n * 0.9)].toFixed(2)} ms`);
  };
  const period = { subscriptionId: k.subscriptionId, periodStart: new Date('2026-11-01T00:00:00Z'), periodEnd: new Date('2026-12-01T00:00:00Z') };
  await time('select 1', () => handle.db.execute(sql`select 1`));
  await time('reserve', () => reserveQueryUnit(handle.db, period, 1e9));
  await time('publisher', () =>
    callHttpBackend({ endpointUrl: p.url, infraKey: p.infraKey, signingSecret: p.signingSecret, timeoutMs: 5_000 }, { kbId: kb, query: 'spring tides', requestId: 'req_x' }, { development: false, allowPrivate: true }),
  );
  await time('gateway', () =>
    handleGatewayRequest({ kbId: kb, requestId: 'req_y', authorization: `Bearer ${k.key}`, contentType: 'application/json', readBody: async () => ({ ok: true, text: '{"query":"spring tides"}' }) }),
  );
  await (await import('@/lib/usage-recorder')).getUsageRecorder().flush();
  await p.stop();
  await handle.close();
} finally {
  await scratch.drop();
}
process.exit(0);
