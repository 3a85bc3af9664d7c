/** Reading the sets prepare.ts wrote. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OutsideSet } from './types';

export const DEFAULT_DIR = '.data/outside-sets';

export function loadPreparedSet(name: string, dir = DEFAULT_DIR): OutsideSet {
  const file = join(dir, `${name}.json`);
  if (!existsSync(file)) throw new Error(`${file} does not exist: run npx tsx bench/engine-quality/outside/prepare.ts --set ${name} --from PATH --out ${dir}`);
  return JSON.parse(readFileSync(file, 'utf8')) as OutsideSet;
}

/** The names of the sets prepared in `dir`, sorted. */
export function listPreparedSets(dir = DEFAULT_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}
