// One flooding client for bench/listing/server.ts, in its own process so that its event loop is not the one that
// measures the paid API's latency. Prints one JSON line with what it got.
//
//   node bench/listing/flood.mjs <base url> <mode> <seconds> <connections>
//
// Modes (every request carries a parameter the listing does not read, with a new random value: cache-busting):
//   one-address     no X-Forwarded-For: every request is the socket's address, one client
//   many-addresses  a new X-Forwarded-For address for every request (the server trusts 127.0.0.1 as a proxy)
//   many-queries    as many-addresses, and a new random search word in `query` too: a real cache miss every time
import autocannon from 'autocannon';

const [base, mode, seconds, connections] = [process.argv[2], process.argv[3], Number(process.argv[4]), Number(process.argv[5] ?? 200)];
const VOCABULARY = ['climate', 'privacy', 'health', 'court', 'tenant', 'vaccine', 'budget', 'energy', 'transit', 'algebra', 'ethics', 'survey'];
let n = 0;
const address = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
const random = () => Math.random().toString(36).slice(2, 10);

function setupRequest(request) {
  n++;
  let path = `/api/marketplace/knowledge-bases?x=${random()}`;
  if (mode === 'many-queries') path += `&query=${VOCABULARY[n % VOCABULARY.length]}%20${random().slice(0, 3)}`;
  const headers = { ...request.headers };
  if (mode !== 'one-address') headers['x-forwarded-for'] = address(n);
  return { ...request, path, headers };
}

const result = await autocannon({ url: base, connections, duration: seconds, timeout: 30, requests: [{ method: 'GET', setupRequest }] });
console.log(
  JSON.stringify({
    mode,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, v]) => [code, v.count])),
    errors: result.errors,
    timeouts: result.timeouts,
  }),
);
