import { sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import type { SearchTerms } from './search-query';

/**
 * "Did you mean": each word the catalogue lacks becomes its nearest catalogue word by trigram similarity (pg_trgm over
 * catalog_terms), in one statement. Left as typed: known words, stop words, a last word still being typed, and short
 * words or words with digits (too few trigrams). Null when nothing changes.
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
