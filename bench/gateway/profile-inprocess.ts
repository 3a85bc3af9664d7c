/**
 * Diagnostic: the gateway served by test/support/gateway-server.ts (no Next) in this process, against Postgres and
 * the instant example publisher, to separate the gateway's own cost from the framework's. Not part of the README run.
 */
// @ts-expect-error autocannon ships no type declarations
import autocannon from 'autocannon';
import { openGatewayFixture } from './in-process-fixture';

const fixture = await openGatewayFixture('prof');
try {
  const { listenGatewayServer } = await import('../../test/support/gateway-server');
  const server = await listenGatewayServer();
  const r = await autocannon({
    url: `${server.url}/kb/${fixture.kbId}/query`,
    method: 'POST',
    connections: 10,
    duration: 5,
    headers: { authorization: `Bearer ${fixture.key.key}`, 'content-type': 'application/json' },
    body: '{"query":"spring tides"}',
  });
  console.log('in-process gateway', { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx });
  await server.close();
} finally {
  await fixture.close();
}
process.exit(0);
