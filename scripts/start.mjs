#!/usr/bin/env node
// `npm start`: builds the app when there is no build or the sources are newer than it, then serves it with
// scripts/serve.mjs (Next.js, with the query gateway on its fast lane). The server migrates the database and seeds the
// sample marketplace on first start (instrumentation.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const buildId = path.join(root, process.env.NEXT_DIST_DIR || '.next', 'BUILD_ID');
const sourceDirs = ['app', 'lib', 'components', 'db', 'public'];
const sourceFiles = ['next.config.mjs', 'package-lock.json', 'instrumentation.ts', 'postcss.config.mjs'];

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
const sourcesAt = Math.max(...[...sourceDirs, ...sourceFiles].map((p) => newestMtime(path.join(root, p))));
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');

if (builtAt < sourcesAt) {
  console.log(builtAt ? 'Sources changed since the last build; rebuilding…' : 'First start: building Almanac (about a minute)…');
  const build = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (build.status !== 0) {
    // Next writes BUILD_ID before the build can still fail; left in place, the next start would serve the half build.
    rmSync(buildId, { force: true });
    process.exit(build.status ?? 1);
  }
}

// Same process, same arguments (-p, -H, --keepAliveTimeout).
await import('./serve.mjs');
