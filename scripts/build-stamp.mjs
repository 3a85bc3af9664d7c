// How `npm start` knows the build is of these sources: dist/build.json holds a SHA-256 over every source file and Next's
// BUILD_ID. Content, not mtimes: a container image, a copy or a fresh clone changes every mtime and no content.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const compiledDir = path.join(root, 'dist');
export const stampPath = path.join(compiledDir, 'build.json');
export const nextDistDir = (tree = root) => path.join(tree, process.env.NEXT_DIST_DIR || '.next');

const sourceDirs = ['app', 'lib', 'components', 'db', 'public', 'scripts'];
const sourceFiles = ['instrumentation.ts', 'next.config.mjs', 'postcss.config.mjs', 'package-lock.json'];
const isTest = (name) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(name);

function listFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(full);
    return entry.isFile() && !isTest(entry.name) ? [full] : [];
  });
}

export function sourceFingerprint(tree = root) {
  const files = [...sourceDirs.flatMap((dir) => listFiles(path.join(tree, dir))), ...sourceFiles.map((f) => path.join(tree, f)).filter(existsSync)].sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(path.relative(tree, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** `missing` also covers a build that failed before its stamp; `stale`, Next's output replaced since. */
export function buildState(tree = root) {
  const stampFile = path.join(tree, path.relative(root, stampPath));
  if (!existsSync(stampFile)) return 'missing';
  const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  const buildIdFile = path.join(nextDistDir(tree), 'BUILD_ID');
  if (!existsSync(buildIdFile) || readFileSync(buildIdFile, 'utf8').trim() !== stamp.nextBuildId) return 'missing';
  return stamp.sources === sourceFingerprint(tree) ? 'current' : 'stale';
}

export const STALE_BUILD_MESSAGE = 'The build is older than the sources (they changed since `npm run build`): run `npm run build`, then start again.';
