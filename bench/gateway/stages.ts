/**
 * Diagnostic: sequential (concurrency 1) latency of the gateway's parts against Postgres and the instant example
 * publisher — a trivial query, the cap reservation, the publisher call, and the whole gateway pipeline without HTTP.
 *   npx tsx bench/gateway/stages.ts
 */
import { sql } from 'drizzle-orm';
import { itemAt } from '@/lib/platform/arrays';
import { openGatewayFixture } from './in-process-fixture';

const fixture = await openGatewayFixture('stages');
try {
  const { handle, publisher: p, kbId: kb, key: k } = fixture;
  const { handleGatewayRequest } = await import('@/lib/gateway/pipeline');
  const { reserveQueryUnit } = await import('@/lib/gateway/quota');
  const { callHttpBackend } = await import('@/lib/routing/http-connector');
  const time = async (name: string, fn: () => Promise<unknown>, n = 300) => {
    for (let i = 0; i < 20; i++) await fn();
    const xs: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await fn();
      xs.push(performance.now() - t);
    }
    xs.sort((a, b) => a - b);
    console.log(`${name.padEnd(12)} p50 ${itemAt(xs, n >> 1).toFixed(2)} ms   p90 ${itemAt(xs, Math.floor(n * 0.9)).toFixed(2)} ms`);
  };
  const period = { subscriptionId: k.subscriptionId, periodStart: new Date('2026-11-01T00:00:00Z'), periodEnd: new Date('2026-12-01T00:00:00Z') };
  await time('select 1', () => handle.db.execute(sql`select 1`));
  await time('reserve', () => reserveQueryUnit(handle.db, period, 1e9));
  await time('publisher', () =>
    callHttpBackend(
      { endpointUrl: p.url, infraKey: p.infraKey, signingSecret: p.signingSecret, timeoutMs: 5_000 },
      { kbId: kb, query: 'spring tides', requestId: 'req_x' },
      { development: false, allowPrivate: true },
    ),
  );
  await time('gateway', () =>
    handleGatewayRequest({
      kbId: kb,
      requestId: 'req_y',
      authorization: `Bearer ${k.key}`,
      contentType: 'application/json',
      readBody: async () => ({ ok: true, text: '{"query":"spring tides"}' }),
    }),
  );
} finally {
  await fixture.close();
}
process.exit(0);
