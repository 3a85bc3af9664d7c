import { createRequire } from 'node:module';
import { STOP_WORDS } from './text';

/**
 * The other forms of an English word that the stemmer cannot reach: irregular verbs ("wrote", "written" for "write")
 * and irregular plurals ("child" for "children"). A question asks "Who wrote the Constitution?" of a document that
 * says the delegates "decided to write a new frame of government"; Snowball stems "wrote" to itself. Looked up as
 * aliases of the question's word (term-lookup.ts), as number words are, so retrieval, the reader and the gate all see
 * the match. Lists: english-verbs-irregular (RosaeNLG, Apache-2.0) and irregular-plurals (MIT).
 */

/**
 * Forms that are more often another word than the verb or noun they inflect ("found" a company, a "saw", "left" of
 * the road, a "rose"): looked up as such they would match the wrong sense far more often than the right one.
 */
const HOMOGRAPHS = new Set(
  (
    'found saw lay lain lie rose fell felt ground wound bore born borne bound spoke spoken bit lead leaves left meant light lit ' +
    'shot sat lost media data bases axes means news species series dice lives people'
  ).split(' '),
);

/**
 * Light verbs say little of what is asked ("gave rise to", "took place", "made up of", "came up with"): their forms
 * are not looked up, as the stop words' are not.
 */
const LIGHT_VERBS = new Set('give take make get go come become let put say see keep tell think'.split(' '));

/** Every form of an irregular word, by each of its forms: the groups it belongs to; and the base forms. */
interface Forms {
  groups: Map<string, Set<string>[]>;
  bases: Set<string>;
}

let forms: Promise<Forms> | null = null;

/**
 * The two lists, read once when first needed. Loaded by Node at run time, never bundled (next.config.mjs lists the
 * packages in serverExternalPackages): irregular-plurals is an ES module only, so it is imported, not required.
 */
function load(): Promise<Forms> {
  forms ??= (async () => {
    const verbs = createRequire(import.meta.url)('english-verbs-irregular/dist/verbs.json') as Record<string, string[][]>;
    const { default: plurals } = await import('irregular-plurals');
    const groups = new Map<string, Set<string>[]>();
    const add = (all: string[]) => {
      const group = formGroup(all);
      if (group) for (const form of group) groups.set(form, [...(groups.get(form) ?? []), group]);
    };
    for (const [base, tenses] of Object.entries(verbs)) if (!LIGHT_VERBS.has(base)) add([base, ...tenses.flat()]);
    for (const [singular, plural] of plurals) add([singular, plural]);
    return { groups, bases: new Set([...Object.keys(verbs), ...plurals.keys()]) };
  })();
  return forms;
}

function formGroup(all: string[]): Set<string> | null {
  const [base = ''] = all;
  const group = new Set(
    all
      .map((f) => f.toLowerCase())
      // A regular "-ed" form ("stepped", "controlled") is one the stemmer already reaches.
      .filter((f) => /^[a-z]+$/.test(f) && !HOMOGRAPHS.has(f) && !(f !== base && f.startsWith(base.slice(0, -1)) && f.endsWith('ed'))),
  );
  // "do", "did", "have", "been" are stop words: their forms say nothing of what is asked ("done" for "How do I…?").
  return group.size < 2 || [...group].some((f) => STOP_WORDS.has(f)) ? null : group;
}

const MAX_FORMS = 4;

/** The base and other forms of an English word in an irregular past form or plural, at most a few; none otherwise. */
export async function irregularForms(word: string): Promise<string[]> {
  const w = word.toLowerCase();
  const { groups, bases } = await load();
  // A base form ("write", "keep", "child") is not widened to "wrote", "kept" or "children": measured on the seeded
  // natural questions, "How long should we keep our data?" then found "may be kept indefinitely" and "How much fibre
  // should I eat?" a study whose adults "ate" ultra-processed food, while the other way round ("Who wrote…?",
  // "children") finds what the documents say in the base form.
  if (!groups.has(w) || bases.has(w)) return [];
  const out = new Set<string>();
  for (const group of groups.get(w) ?? []) for (const form of group) if (form !== w) out.add(form);
  return [...out].slice(0, MAX_FORMS);
}
