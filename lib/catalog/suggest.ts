import { sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import type { SearchTerms } from './search-query';

/**
 * "Did you mean": for a search that finds nothing or little, each word the catalogue does not contain is
 * replaced by the catalogue word nearest to it by trigram similarity (pg_trgm, `%` at its default threshold 0.3,
 * over catalog_terms: every plain word of the published catalogue, migration 0016). One statement for all words.
 *
 * Left as typed: words the catalogue contains; stop words; the last word when it begins a catalogue word (still
 * being typed); a word whose nearest catalogue word has the same stem (it finds the same); words shorter than MIN_SUGGEST_LENGTH or holding digits (too few trigrams to judge). Null when nothing changes.
 * The suggestion is lower case, one space between words (what the search matches anyway).
 */
const MIN_SUGGEST_LENGTH = 4;

export async function suggestSearch(executor: Executor, terms: SearchTerms): Promise<string | null> {
  const words = terms.words;
  const candidates = words.map((word, i) => ({ word, i })).filter(({ word }) => word.length >= MIN_SUGGEST_LENGTH && /^[a-z]+$/.test(word));
  if (candidates.length === 0) return null;
  const last = words.length - 1;
  // A nearest word with the typed word's stem would find the same knowledge bases ("constitutions"): not offered.
  const result = await executor.execute(sql`
    select s.i, s.nearest from (
      select q.i::int as i, q.w,
        (select t.word from catalog_terms t where t.word % q.w order by similarity(t.word, q.w) desc, t.word limit 1) as nearest
      from (values ${sql.join(
        candidates.map(({ word, i }) => sql`(${i}::int, ${word}::text)`),
        sql`, `,
      )}) as q(i, w)
      where to_tsvector('almanac', q.w) <> ''::tsvector
        and not exists (select 1 from catalog_terms t where t.word = q.w)
        and not (q.i = ${last} and exists (select 1 from catalog_terms t where t.word like q.w || '%'))
    ) s
    where s.nearest is not null and to_tsvector('almanac', s.nearest) <> to_tsvector('almanac', s.w)`);
  const replacements = new Map((result.rows as { i: number; nearest: string | null }[]).filter((r) => r.nearest).map((r) => [Number(r.i), r.nearest!]));
  if (replacements.size === 0) return null;
  return words.map((word, i) => replacements.get(i) ?? word).join(' ');
}
