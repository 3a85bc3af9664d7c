#!/usr/bin/env node
// Playwright's web server: the production build on a fresh data directory, which proves start-up from nothing. The
// build of `npm run build` when current, so CI builds once; otherwise one of its own in .next-e2e, so a half-edited tree
// never meets a deployable build (E2E_SKIP_BUILD=1 reuses it).
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
  // `next build` adds its dist folder's type paths to tsconfig.json, which must not change per test run.
  const tsconfigPath = path.join(root, 'tsconfig.json');
  const tsconfig = readFileSync(tsconfigPath);
  const build = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, stdio: 'inherit', env });
  if (!readFileSync(tsconfigPath).equals(tsconfig)) writeFileSync(tsconfigPath, tsconfig);
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, [path.join(root, 'scripts', 'serve.mjs'), '-p', port, '-H', '127.0.0.1'], { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
// 128 + the signal's number, as a shell reports it: never a success.
server.on('exit', (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
