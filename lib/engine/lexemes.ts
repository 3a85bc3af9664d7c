import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import type { SearchConfig } from './language';
import { rows } from './sql-rows';

/** Lexemes by the very stemmer that indexed the knowledge base: how answers find the question's terms in a passage. */
export async function lexemesOf(db: Executor, config: SearchConfig, words: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  const known = LEXEME_CACHE.get(config) ?? new Map<string, string[]>();
  LEXEME_CACHE.set(config, known);
  const missing: string[] = [];
  for (const w of new Set(words)) {
    if (w.length > 64) continue;
    const hit = known.get(w);
    if (hit) map.set(w, hit);
    else missing.push(w);
  }
  if (missing.length === 0) return map;
  const result = rows<{ w: string; lx: string[] | string | null }>(
    await db.execute(sql`
      select w, tsvector_to_array(to_tsvector(${config}::regconfig, w)) as lx
      from jsonb_array_elements_text(${JSON.stringify(missing)}::jsonb) as t(w)`),
  );
  // A word's lexemes never change for a configuration: remembered (bounded).
  if (known.size + result.length > LEXEME_CACHE_MAX) known.clear();
  for (const r of result) {
    const lexemes = parseTextArray(r.lx);
    map.set(r.w, lexemes);
    known.set(r.w, lexemes);
  }
  return map;
}

const LEXEME_CACHE_MAX = 200_000;
const LEXEME_CACHE = new Map<SearchConfig, Map<string, string[]>>();

function parseTextArray(value: string[] | string | null): string[] {
  if (value === null) return [];
  if (Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, '');
  return inner === '' ? [] : inner.split(',').map((x) => x.replace(/^"|"$/g, ''));
}
