import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildState, sourceFingerprint } from './build-stamp.mjs';

/** How `npm start` tells the build of these sources from a stale one (scripts/build-stamp.mjs). */
let tree: string;
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
  writeFileSync(path.join(tree, file), text);
};
const stamp = (sources: string, nextBuildId = 'build-1') => {
  write('dist/build.json', JSON.stringify({ nextBuildId, sources }));
  write('.next/BUILD_ID', 'build-1');
};

beforeEach(() => {
  tree = mkdtempSync(path.join(os.tmpdir(), 'almanac-stamp-'));
  write('app/page.tsx', 'export default function Page() {}');
  write('lib/health.ts', 'export const ok = true;');
  write('package-lock.json', '{}');
});

afterEach(() => rmSync(tree, { recursive: true, force: true }));

describe('sourceFingerprint', () => {
  it('changes with a source file, and not with a modification time, a test file or a file outside the sources', () => {
    const before = sourceFingerprint(tree);
    utimesSync(path.join(tree, 'lib/health.ts'), new Date(0), new Date(0));
    write('lib/health.test.ts', 'test');
    write('README.md', 'docs');
    write('test/integration/x.test.ts', 'test');
    expect(sourceFingerprint(tree)).toBe(before);
    write('lib/health.ts', 'export const ok = false;');
    expect(sourceFingerprint(tree)).not.toBe(before);
    write('lib/health.ts', 'export const ok = true;');
    write('package-lock.json', '{"lockfileVersion":3}');
    expect(sourceFingerprint(tree)).not.toBe(before);
  });
});

describe('buildState', () => {
  it('is missing without a stamp, or when Next was rebuilt since (another BUILD_ID)', () => {
    expect(buildState(tree)).toBe('missing');
    stamp(sourceFingerprint(tree), 'build-0');
    expect(buildState(tree)).toBe('missing');
  });

  it('is current for the sources it was built from, and stale once one changes', () => {
    stamp(sourceFingerprint(tree));
    expect(buildState(tree)).toBe('current');
    write('app/page.tsx', 'export default function Page() { return null; }');
    expect(buildState(tree)).toBe('stale');
  });
});
