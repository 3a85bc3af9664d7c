import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';

/**
 * Loads N synthetic knowledge bases with INSERT … SELECT over generate_series (fast: no round trip per row).
 * Text is assembled from a domain vocabulary so that search terms hit realistic fractions of the table (a common
 * word matches a few percent of rows, a rare one a handful). setseed makes every run load the same data.
 */

const WORDS = [
  'constitution', 'amendment', 'privacy', 'regulation', 'compliance', 'contract', 'liability', 'employment', 'tenant',
  'court', 'statute', 'treaty', 'copyright', 'trademark', 'patent', 'evidence', 'clinical', 'hypertension', 'diabetes',
  'vaccine', 'immunization', 'nutrition', 'protein', 'fibre', 'sleep', 'cardiology', 'oncology', 'pediatric', 'maternal',
  'antibiotic', 'infection', 'mental', 'wellbeing', 'screening', 'algebra', 'geometry', 'calculus', 'statistics',
  'history', 'literacy', 'phonics', 'curriculum', 'assessment', 'classroom', 'teacher', 'student', 'university',
  'writing', 'reading', 'climate', 'carbon', 'emissions', 'energy', 'renewable', 'housing', 'zoning', 'transit',
  'water', 'broadband', 'migration', 'budget', 'taxation', 'wages', 'poverty', 'governance', 'election', 'research',
  'methods', 'survey', 'interview', 'sampling', 'regression', 'causal', 'experiment', 'reproducible', 'dataset',
  'metadata', 'archive', 'ethics', 'consent', 'grant', 'citation', 'bibliometrics', 'science', 'policy', 'market',
  'finance', 'insurance', 'pension', 'banking', 'audit', 'procurement', 'transport', 'agriculture', 'forestry',
  'fisheries', 'ocean', 'river', 'drought', 'flood', 'resilience', 'urban', 'rural', 'digital', 'identity', 'security',
  'cyber', 'incident', 'breach', 'encryption', 'software', 'hardware', 'robotics', 'artificial', 'intelligence',
  'learning', 'language', 'translation', 'accessibility', 'disability', 'inclusion', 'diversity', 'gender', 'youth',
  'ageing', 'retirement', 'healthcare', 'hospital', 'pharmacy', 'dosing', 'surgery', 'nursing', 'midwifery',
  'dentistry', 'optometry', 'genetics', 'genomics', 'epidemiology', 'pandemic', 'outbreak', 'surveillance', 'labour',
  'union', 'trade', 'tariff', 'export', 'customs', 'shipping', 'aviation', 'railway', 'highway', 'bridge', 'tunnel',
  'société', 'économie', 'constitución', 'gesundheit', 'forschung', 'éducation', 'política', 'umwelt',
];
const NOUNS = ['Handbook', 'Guide', 'Digest', 'Primer', 'Briefings', 'Atlas', 'Companion', 'Notes', 'Casebook', 'Toolkit', 'Review', 'Manual'];
const TAGS = [
  'best-practices', 'beginner', 'case-law', 'climate', 'clinical', 'compliance', 'constitutional', 'contracts',
  'curriculum', 'economics', 'employment', 'europe', 'governance', 'guidelines', 'higher-education', 'history',
  'housing', 'international', 'k-12', 'mathematics', 'mental-health', 'methodology', 'nutrition', 'open-data',
  'pediatrics', 'privacy', 'public-health', 'reference', 'regulation', 'statistics', 'teacher-resources', 'united-states',
];

const textArray = (items: string[]) => sql.raw(`array[${items.map((w) => `'${w.replace(/'/g, "''")}'`).join(',')}]::text[]`);

export async function loadBenchCatalog(db: Database, count: number, publishersCount = 500): Promise<void> {
  await db.execute(sql`select setseed(0.4242)`);
  await db.execute(sql`
    insert into publishers (id, slug, name, description)
    select 'pub_bench' || lpad(i::text, 5, '0'), 'bench-publisher-' || i,
           initcap(w[1 + floor(random() * array_length(w, 1))::int]) || ' ' || (array['Press','Institute','Collective','Review','Lab','Centre'])[1 + i % 6],
           'Synthetic publisher for the listing benchmark.'
    from generate_series(1, ${sql.raw(String(Math.trunc(publishersCount)))}) as i, (select ${textArray(WORDS)} as w) as v`);
  // One statement; the catalog_search trigger fills the search projection row by row, exactly as in production.
  await db.execute(sql`
    insert into knowledge_bases (id, publisher_id, slug, title, summary, description, category, tags, status,
                                 subscribers_count, query_volume, created_at, updated_at, language)
    select 'kb_bench' || lpad(i::text, 8, '0'),
           'pub_bench' || lpad((1 + (i * 7919) % ${sql.raw(String(Math.trunc(publishersCount)))})::text, 5, '0'),
           'bench-kb-' || i,
           initcap(w[1 + floor(random() * wn)::int]) || ' ' || initcap(w[1 + floor(random() * wn)::int]) || ' ' || n[1 + floor(random() * array_length(n, 1))::int],
           'A practical reference on ' || w[1 + floor(random() * wn)::int] || ' and ' || w[1 + floor(random() * wn)::int]
             || ' for teams working on ' || w[1 + floor(random() * wn)::int] || '.',
           'This collection explains ' || w[1 + floor(random() * wn)::int] || ', ' || w[1 + floor(random() * wn)::int] || ' and '
             || w[1 + floor(random() * wn)::int] || ' with worked examples. Each chapter covers ' || w[1 + floor(random() * wn)::int]
             || ' in depth, compares approaches to ' || w[1 + floor(random() * wn)::int] || ' and closes with a checklist.'
             || E'\n\n' || 'Readers interested in ' || w[1 + floor(random() * wn)::int] || ' or ' || w[1 + floor(random() * wn)::int]
             || ' will find cross-references, a glossary and pointers to the primary literature.',
           (array['education','policy','health','research','legal'])[1 + i % 5]::category,
           array(select distinct t[1 + floor(random() * array_length(t, 1))::int] from generate_series(1, 2 + i % 3) where i > 0),
           (case when i % 50 = 0 then 'draft' else 'published' end)::kb_status,
           floor(power(random(), 3) * 400)::int,
           floor(power(random(), 2) * 200000)::bigint,
           c.at,
           c.at + random() * (now() - c.at),
           -- Mostly English, as a marketplace would be: 4% Spanish, 3% German, 2% Brazilian Portuguese, 1% French.
           (case when i % 100 < 4 then 'es' when i % 100 < 7 then 'de' when i % 100 < 9 then 'pt-BR' when i % 100 < 10 then 'fr' else 'en' end)
    from generate_series(1, ${sql.raw(String(Math.trunc(count)))}) as i
    cross join lateral (select now() - random() * interval '730 days' + (i * 0) * interval '1 second' as at) as c,
    (select ${textArray(WORDS)} as w, ${textArray(NOUNS)} as n, ${textArray(TAGS)} as t, ${sql.raw(String(WORDS.length))} as wn) as v`);
}
