/**
 * Diagnostic: the gateway served by test/support/gateway-server.ts (no Next) in this process, against Postgres and
 * the instant example publisher, to separate the gateway's own cost from the framework's. Not part of the README run.
 */
import { createScratchDatabase } from '../../test/support/scratch-database';
// @ts-expect-error autocannon ships no type declarations
import autocannon from 'autocannon';

const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';
const scratch = await createScratchDatabase(`almanac_prof_${Math.random().toString(36).slice(2, 8)}`, ADMIN_URL);
Object.assign(process.env, { ALMANAC_SECRET: 'fake-prof-secret-0123456789abcdef', ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'true', LOG_LEVEL: 'warn', SEED_ON_START: 'false', DATABASE_URL: scratch.url });
const { openPostgres } = await import('@/db/client');
const { prepareDatabase, useDatabase } = await import('@/lib/db');
const f = await import('../../test/support/gateway-fixtures');
const { listenGatewayServer } = await import('../../test/support/gateway-server');
const handle = await openPostgres(scratch.url, 20);
await prepareDatabase(handle, { seed: false });
useDatabase(handle);
const p = await f.startExamplePublisher();
const kb = await f.createHttpKnowledgeBase(handle.db, await f.createPublisher(handle.db), { endpointUrl: p.url, infraKey: p.infraKey, signingSecret: p.signingSecret });
const k = await f.buyKey(handle.db, kb, { cap: 100_000_000, perMinute: 100_000_000 });
const server = await listenGatewayServer();
const r = await autocannon({ url: `${server.url}/kb/${kb}/query`, method: 'POST', connections: 10, duration: 5, headers: { authorization: `Bearer ${k.key}`, 'content-type': 'application/json' }, body: '{"query":"spring tides"}' });
console.log('in-process gateway', { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx });
await server.close();
await (await import('@/lib/usage-recorder')).getUsageRecorder().flush();
await p.stop();
await handle.close();
await scratch.drop();
process.exit(0);
