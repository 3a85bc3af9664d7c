/** Every outside set, by name. */
import { clapnq } from './clapnq';
import { cuadContracts } from './cuad';
import { emanual } from './emanual';
import { nqLong } from './nq-long';
import { obliqa } from './obliqa';
import { pubmedqa } from './pubmedqa';
import { qasper } from './qasper';
import type { SetLoader } from './set-loader';
import { xquad, xquadOtherLanguages } from './xquad';

export const outsideSets: readonly SetLoader[] = [nqLong, qasper, obliqa, cuadContracts, emanual, xquad, clapnq, pubmedqa];

/** Sets in other languages than English: prepared on request (`--set`), measured with measure.ts, never fitted on. */
export const otherLanguageSets: readonly SetLoader[] = [...xquadOtherLanguages];

export const setNamed = (name: string) => [...outsideSets, ...otherLanguageSets].find((s) => s.name === name);

/** Where the lead's fetch tool puts a repository: `<mirror>/<owner>+<name>/repo`. */
export function mirrorPathOf(loader: SetLoader, mirror: string): string {
  const [owner, name] = new URL(loader.source.repository).pathname.split('/').filter(Boolean);
  return `${mirror.replace(/\/$/, '')}/${owner}+${name}/repo`;
}
