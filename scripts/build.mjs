#!/usr/bin/env node
// `npm run build`: everything start-up needs, so servers run without dev dependencies and never build. The stamp
// (dist/build.json) that `npm start` checks is written last: a failed build leaves none, so nothing half-built is served.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compiledDir, nextDistDir, root, sourceFingerprint, stampPath } from './build-stamp.mjs';

const compiledScripts = ['almanac', 'db-migrate', 'db-seed'];
const tsconfigPath = path.join(root, 'tsconfig.json');

// Without an `exports` map Node's ESM loader takes a subpath as written (`next/headers` is `next/headers.js`), so the
// compiled import must name the extension that bundler resolution and tsx add.
const withFileExtensions = {
  name: 'file-extensions',
  setup(build) {
    build.onResolve({ filter: /^(@[^/]+\/)?[^./@][^/]*\/.+/ }, (args) => {
      const [, scope = '', name, subpath] = /^(@[^/]+\/)?([^/]+)\/(.+)$/.exec(args.path);
      const packageDir = path.join(root, 'node_modules', scope + name);
      const manifest = path.join(packageDir, 'package.json');
      if (!existsSync(manifest) || JSON.parse(readFileSync(manifest, 'utf8')).exports) return { path: args.path, external: true };
      const needsExtension = !existsSync(path.join(packageDir, subpath)) && existsSync(path.join(packageDir, `${subpath}.js`));
      return { path: needsExtension ? `${args.path}.js` : args.path, external: true };
    });
  },
};

export async function build() {
  rmSync(stampPath, { force: true });
  // `next build` adds its dist folder's type paths to tsconfig.json; the committed tsconfig must not change per build.
  const tsconfig = readFileSync(tsconfigPath);
  const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
  const next = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (!readFileSync(tsconfigPath).equals(tsconfig)) writeFileSync(tsconfigPath, tsconfig);
  if (next.status !== 0) {
    // Next writes BUILD_ID before the build can still fail; left in place, a start would serve the half build.
    rmSync(path.join(nextDistDir(), 'BUILD_ID'), { force: true });
    return next.status ?? 1;
  }
  await compileScripts();
  const nextBuildId = readFileSync(path.join(nextDistDir(), 'BUILD_ID'), 'utf8').trim();
  writeFileSync(stampPath, `${JSON.stringify({ nextBuildId, sources: sourceFingerprint(), builtAt: new Date().toISOString() }, null, 2)}\n`);
  console.log(`Built: ${path.relative(root, nextDistDir())}/ (Next.js), dist/ (${compiledScripts.join(', ')}).`);
  return 0;
}

export async function compileScripts() {
  // Not at the top: scripts/start.mjs imports this module on a tree installed with --omit=dev, without esbuild.
  const esbuild = await import('esbuild');
  mkdirSync(compiledDir, { recursive: true });
  await esbuild.build({
    entryPoints: Object.fromEntries(compiledScripts.map((name) => [name, path.join(root, 'scripts', `${name}.ts`)])),
    outdir: compiledDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    tsconfig: tsconfigPath,
    logLevel: 'warning',
    plugins: [withFileExtensions],
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) process.exit(await build());
