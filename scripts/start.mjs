#!/usr/bin/env node
// `npm start`: serves the build with scripts/serve.mjs. A build of other sources is refused, never rebuilt, so a fleet
// serves exactly what was built once; only a tree never built is built here, so `npm ci && npm start` works.
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

await import('./serve.mjs');
