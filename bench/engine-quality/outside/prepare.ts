/**
 * Prepares outside question-answering sets into `<out>/<name>.json` (OutsideSet, types.ts) from local copies of their
 * repositories, each file checked against its recorded checksum.
 *
 *   npx tsx bench/engine-quality/outside/prepare.ts --set NAME --from PATH [--out DIR]
 *   npx tsx bench/engine-quality/outside/prepare.ts --all --mirror /work/.mirror [--out DIR]
 *
 * PATH is a bare git directory (read at the recorded commit) or a checkout; with --mirror, each set's repository is
 * looked up at `<mirror>/<owner>+<name>/repo`. DIR defaults to .data/outside-sets (ignored by git).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { wordCount } from './gold';
import { DEFAULT_DIR } from './load';
import type { SetLoader } from './set-loader';
import { mirrorPathOf, otherLanguageSets, outsideSets, setNamed } from './sets';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const out = option('--out') ?? DEFAULT_DIR;
const names = [...outsideSets, ...otherLanguageSets].map((s) => s.name).join(', ');
let jobs: Array<{ loader: SetLoader; from: string }>;
if (args.includes('--all')) {
  const mirror = option('--mirror') ?? fail('--all needs --mirror DIR (where each repository is at <DIR>/<owner>+<name>/repo)');
  jobs = outsideSets.map((loader) => ({ loader, from: mirrorPathOf(loader, mirror) }));
} else {
  const name = option('--set') ?? fail(`usage: prepare.ts --set NAME --from PATH [--out DIR] | --all --mirror DIR [--out DIR]; sets: ${names}`);
  const loader = setNamed(name) ?? fail(`no outside set is named ${name}; sets: ${names}`);
  jobs = [{ loader, from: option('--from') ?? fail("--set needs --from PATH (a git directory or checkout of the set's repository)") }];
}

mkdirSync(out, { recursive: true });
let failed = 0;
for (const { loader, from } of jobs) {
  let set;
  try {
    set = loader.load(from);
  } catch (error) {
    console.error(`${loader.name}: ${(error as Error).message}`);
    failed++;
    continue;
  }
  const file = join(out, `${set.name}.json`);
  writeFileSync(file, `${JSON.stringify(set)}\n`);
  const words = set.documents.reduce((sum, d) => sum + wordCount(d.text), 0);
  const answerable = set.questions.filter((q) => q.answerable).length;
  const setLevel = set.questions.filter((q) => q.documentId === null).length;
  console.log(
    `${set.name} (${set.domain}): ${set.documents.length} documents, ${words.toLocaleString('en')} words; ` +
      `${answerable} answerable + ${set.questions.length - answerable} unanswerable questions (${setLevel} set-level); ` +
      `${set.sampling.dropped} dropped (no gold, or gold not in its document) → ${file}`,
  );
}
if (failed) process.exit(1);
