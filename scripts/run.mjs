#!/usr/bin/env node
// `node scripts/run.mjs <script> [args]`: the compiled dist/<script>.mjs when the build is current (no dev dependency
// needed), else the TypeScript source through tsx when installed, else says to build.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildState, compiledDir, root, STALE_BUILD_MESSAGE } from './build-stamp.mjs';

const [name] = process.argv.splice(2, 1);
const compiled = path.join(compiledDir, `${name}.mjs`);
const source = path.join(root, 'scripts', `${name}.ts`);
if (!name || !existsSync(source)) {
  console.error(`Unknown script "${name ?? ''}".`);
  process.exit(2);
}

const state = existsSync(compiled) ? buildState() : 'missing';
const tsx = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
if (state === 'current') {
  // The script reads process.argv.slice(2) as its own arguments, which the splice above left in place.
  await import(pathToFileURL(compiled).href);
} else if (existsSync(tsx)) {
  const child = spawnSync(process.execPath, [tsx, source, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
} else {
  console.error(state === 'stale' ? STALE_BUILD_MESSAGE : 'There is no build to run: run `npm run build` first (it needs the development dependencies).');
  process.exit(1);
}
