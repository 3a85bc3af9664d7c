#!/usr/bin/env node
// The round-robin proxy of e2e/support/fleet.mjs in a process of its own, so that it does not share the benchmark's
// event loop with the load generator: `node bench/scale-out/proxy.mjs <port> <name>=<port> [<name>=<port> …]`.
// Prints "listening on <port>" when ready; stops on SIGTERM.
import { startProxy } from '../../e2e/support/fleet.mjs';

const [port, ...targets] = process.argv.slice(2);
const upstreams = targets.map((target) => {
  const [name, upstreamPort] = target.split('=');
  return { name, port: Number(upstreamPort) };
});
if (!Number(port) || upstreams.length === 0 || upstreams.some((u) => !u.name || !u.port)) {
  console.error('usage: node bench/scale-out/proxy.mjs <port> <name>=<port> [<name>=<port> …]');
  process.exit(2);
}
const server = await startProxy(Number(port), upstreams);
console.log(`listening on ${port}`);
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
});
