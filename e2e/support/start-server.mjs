#!/usr/bin/env node
// Playwright's web server: a production build served by scripts/serve.mjs as `npm start` serves it, on the port and
// FRESH data directory chosen by playwright.config.ts. The first start therefore migrates and seeds an empty embedded
// database, which proves start-up from nothing.
//
// Which build: the one `npm run build` made (.next), when it is the build of these sources (dist/build.json, as
// `npm start` checks it): CI builds once, and the build-stage check and every server of the Playwright run serve that
// one build. Otherwise a build of its own in .next-e2e (NEXT_DIST_DIR), so that a development tree's half-edited
// sources never meet a deployable build; E2E_SKIP_BUILD=1 reuses .next-e2e when it exists (servers started by specs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildState } from '../../scripts/build-stamp.mjs';

const root = path.resolve(import.meta.dirname, '..', '..');
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const servesReleaseBuild = !process.env.NEXT_DIST_DIR && buildState() === 'current';
const distDir = servesReleaseBuild ? '.next' : process.env.NEXT_DIST_DIR || '.next-e2e';
const port = process.env.E2E_PORT;
if (!port) throw new Error('E2E_PORT is not set (playwright.config.ts sets it)');

const env = { NEXT_SKIP_TYPECHECK: '1', ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: '1' };

if (!servesReleaseBuild && (process.env.E2E_SKIP_BUILD !== '1' || !existsSync(path.join(root, distDir, 'BUILD_ID')))) {
  // `next build` adds its dist folder's type paths to tsconfig.json; the shared tsconfig must not change per test run.
  const tsconfigPath = path.join(root, 'tsconfig.json');
  const tsconfig = readFileSync(tsconfigPath);
  const build = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, stdio: 'inherit', env });
  if (!readFileSync(tsconfigPath).equals(tsconfig)) writeFileSync(tsconfigPath, tsconfig);
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The production server of `npm start`: Next.js with the query gateway on its fast lane.
const server = spawn(process.execPath, [path.join(root, 'scripts', 'serve.mjs'), '-p', port, '-H', '127.0.0.1'], { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
// A server killed by a signal exits as a shell reports it (128 + the signal's number), never as a success.
server.on('exit', (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
