#!/usr/bin/env node
// `npm start`: serves the build of `npm run build` with scripts/serve.mjs (Next.js, with the query gateway on its fast
// lane). It never builds over an existing build: a build of other sources is refused in one sentence, so a fleet of
// instances (or a container) serves exactly what was built once. Only a tree that was never built is built here, so
// that `npm ci && npm start` works on a fresh clone. The server migrates the database and seeds the sample marketplace
// on first start (instrumentation.ts).
import { buildState, STALE_BUILD_MESSAGE } from './build-stamp.mjs';

const state = buildState();
if (state === 'stale') {
  console.error(STALE_BUILD_MESSAGE);
  process.exit(1);
}
if (state === 'missing') {
  console.log('First start: building Almanac (one to three minutes)…');
  const { build } = await import('./build.mjs');
  const status = await build();
  if (status !== 0) process.exit(status);
}

const [major] = process.versions.node.split('.').map(Number);
if (major < 24) console.warn(`Node ${process.versions.node} runs this server; Almanac is maintained on Node 24 LTS (package.json "engines").`);

// Same process, same arguments (-p, -H, --keepAliveTimeout).
await import('./serve.mjs');
