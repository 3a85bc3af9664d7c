/**
 * Diagnostic: CPU per request of the gateway pipeline alone — handleGatewayRequest with 10 requests in flight, no
 * HTTP server and no Next — against Postgres and the instant example publisher in their own processes. It counts
 * this process's CPU (user + system, all its threads: the pipeline, the flushes of the usage recorder, GC), so it
 * is a steadier yardstick for changes to lib/ than run.ts, whose rows move with the machine by ±20 %.
 *
 *   npx tsx bench/gateway/cpu-inprocess.ts        # BENCH_DURATION seconds (default 8), BENCH_ALS=0 to drop the ALS
 *
 * Each request runs inside an AsyncLocalStorage context, as under Next (which keeps several): that turns on Node's
 * promise hooks, so every promise on the path costs more than in a bare process.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { openGatewayFixture } from './in-process-fixture';

const SECONDS = Number(process.env.BENCH_DURATION ?? 8);
const IN_FLIGHT = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WITH_ALS = process.env.BENCH_ALS !== '0';

const fixture = await openGatewayFixture('cpu');
try {
  const { kbId: kb, key } = fixture;
  const { handleGatewayRequest } = await import('@/lib/gateway/pipeline');
  const context = new AsyncLocalStorage<{ requestId: string }>();
  let answered = 0;
  let refused = 0;
  const ask = async () => {
    const requestId = `req_cpu_${answered + refused}`;
    const call = () =>
      handleGatewayRequest({
        kbId: kb,
        requestId,
        authorization: `Bearer ${key.key}`,
        contentType: 'application/json',
        readBody: async () => ({ ok: true, text: '{"query":"When do spring tides occur?"}' }),
      });
    const outcome = WITH_ALS ? await context.run({ requestId }, call) : await call();
    if (outcome.ok) answered++;
    else refused++;
  };
  const runFor = async (ms: number) => {
    const end = Date.now() + ms;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (Date.now() < end) await ask();
      }),
    );
  };

  await runFor(2_000); // warm-up: JIT, pools, caches
  answered = refused = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await runFor(SECONDS * 1_000);
  const cpu = process.cpuUsage(cpuBefore);
  const seconds = (performance.now() - started) / 1_000;
  const perRequest = (micros: number) => (micros / 1_000 / answered).toFixed(3);
  console.log(
    `${answered} answered (${refused} refused) in ${seconds.toFixed(1)} s, ${Math.round(answered / seconds)}/s; ` +
      `CPU per request ${perRequest(cpu.user + cpu.system)} ms (user ${perRequest(cpu.user)}, system ${perRequest(cpu.system)})${WITH_ALS ? '' : ', no ALS'}`,
  );
} finally {
  await fixture.close();
}
process.exit(0);
