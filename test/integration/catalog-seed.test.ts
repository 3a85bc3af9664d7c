import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { recomputeCatalogCounters, seedCatalog } from '@/lib/seed/catalog';
import { TAG_VOCABULARY } from '@/db/seed/catalog/knowledge-bases';
import { createTestDatabase, firstRow } from '../support/db';

/** The sample catalogue itself: shape, the hosted table of hosted-kbs.md, derived counters, determinism, idempotence. */

const HOSTED: [string, string, string, string, string][] = [
  ['us-constitution-companion', 'U.S. Constitution Companion', 'legal', 'civic-texts-press', 'Civic Texts Press'],
  ['gdpr-practitioner-guide', "GDPR Practitioner's Guide", 'legal', 'lexica-europe', 'Lexica Europe'],
  ['employment-law-basics', 'Employment Law Basics', 'legal', 'civic-texts-press', 'Civic Texts Press'],
  ['hypertension-care-guidelines', 'Hypertension Care Guidelines', 'health', 'meridian-health', 'Meridian Health Institute'],
  ['childhood-immunization-handbook', 'Childhood Immunization Handbook', 'health', 'meridian-health', 'Meridian Health Institute'],
  ['nutrition-science-digest', 'Nutrition Science Digest', 'health', 'harvest-nutrition-lab', 'Harvest Nutrition Lab'],
  ['algebra-foundations', 'Algebra Foundations (Grades 7–9)', 'education', 'brightpath-learning', 'Brightpath Learning'],
  ['world-history-essentials', 'World History Essentials', 'education', 'brightpath-learning', 'Brightpath Learning'],
  ['climate-policy-briefings', 'Climate Policy Briefings', 'policy', 'northwind-policy', 'Northwind Policy Centre'],
  ['urban-housing-policy', 'Urban Housing Policy Digest', 'policy', 'northwind-policy', 'Northwind Policy Centre'],
  ['research-methods-primer', 'Research Methods Primer', 'research', 'open-methods', 'Open Methods Collective'],
  ['research-data-management', 'Research Data Management Handbook', 'research', 'open-methods', 'Open Methods Collective'],
];

const NOW = new Date('2026-03-15T10:00:00.000Z');
let db: Database;
let other: Database;

const rows = async <T>(database: Database, query: ReturnType<typeof sql>) => (await database.execute(query)).rows as T[];

beforeAll(async () => {
  ({ db } = await createTestDatabase());
  expect((await seedCatalog(db, { now: NOW })).skipped).toBe(false);
  // The same seed on another day, in another database: what it derives must not depend on the date.
  ({ db: other } = await createTestDatabase({ install: false }));
  await seedCatalog(other, { now: new Date(NOW.getTime() + 9 * 86_400_000) });
});

describe('the sample catalogue', () => {
  it('has ≥ 60 published knowledge bases, ≥ 10 per category, 2–3 drafts, ≥ 15 publishers', async () => {
    const perCategory = await rows<{ category: string; n: number }>(
      db,
      sql`select category::text as category, count(*)::int as n from knowledge_bases where status = 'published' group by 1`,
    );
    expect(perCategory.map((r) => r.category).sort()).toEqual(['education', 'health', 'legal', 'policy', 'research']);
    for (const r of perCategory) expect(r.n).toBeGreaterThanOrEqual(10);
    expect(perCategory.reduce((a, r) => a + r.n, 0)).toBeGreaterThanOrEqual(60);
    const drafts = firstRow(await rows<{ n: number }>(db, sql`select count(*)::int as n from knowledge_bases where status = 'draft'`));
    expect(drafts.n).toBeGreaterThanOrEqual(2);
    expect(drafts.n).toBeLessThanOrEqual(3);
    const [pubs] = await rows<{ n: number }>(db, sql`select count(*)::int as n from publishers`);
    expect(pubs?.n).toBeGreaterThanOrEqual(15);
  });

  it('contains the twelve hosted knowledge bases exactly as agreed', async () => {
    const found = await rows<{ slug: string; title: string; category: string; pslug: string; pname: string; status: string; backend: string }>(
      db,
      sql`
      select kb.slug, kb.title, kb.category::text as category, p.slug as pslug, p.name as pname, kb.status::text as status, kb.backend_kind::text as backend
      from knowledge_bases kb join publishers p on p.id = kb.publisher_id`,
    );
    for (const [slug, title, category, pslug, pname] of HOSTED) {
      expect(found.find((r) => r.slug === slug)).toEqual({ slug, title, category, pslug, pname, status: 'published', backend: 'hosted' });
    }
  });

  it('every knowledge base: 2–5 tags from a shared vocabulary of 25–35, 3–4 sample questions, 2–4 paragraphs, a free taster and three paid plans', async () => {
    expect(TAG_VOCABULARY.length).toBeGreaterThanOrEqual(25);
    expect(TAG_VOCABULARY.length).toBeLessThanOrEqual(35);
    const kbs = await rows<{
      id: string;
      tags: string[];
      sample_questions: string[];
      description: string;
      summary: string;
      created_at: Date;
      updated_at: Date;
    }>(db, sql`select * from knowledge_bases`);
    const tagUse = new Map<string, number>();
    for (const kb of kbs) {
      expect(kb.tags.length).toBeGreaterThanOrEqual(2);
      expect(kb.tags.length).toBeLessThanOrEqual(5);
      for (const t of kb.tags) {
        expect(TAG_VOCABULARY).toContain(t);
        tagUse.set(t, (tagUse.get(t) ?? 0) + 1);
      }
      expect(kb.sample_questions.length).toBeGreaterThanOrEqual(3);
      expect(kb.sample_questions.length).toBeLessThanOrEqual(4);
      const paragraphs = kb.description.split('\n\n').length;
      expect(paragraphs).toBeGreaterThanOrEqual(2);
      expect(paragraphs).toBeLessThanOrEqual(4);
      expect(new Date(kb.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(kb.created_at).getTime());
      expect(new Date(kb.created_at).getTime()).toBeGreaterThan(NOW.getTime() - 731 * 86_400_000);
      expect(new Date(kb.updated_at).getTime()).toBeLessThanOrEqual(NOW.getTime());
    }
    // Several tags are shared by many knowledge bases, so filters combine.
    expect([...tagUse.values()].filter((n) => n >= 6).length).toBeGreaterThanOrEqual(5);
    const plans = await rows<{ kb_id: string; names: string[]; caps: number[]; rpm: number[]; prices: number[] }>(
      db,
      sql`
      select kb_id, array_agg(name order by sort_order) as names, array_agg(queries_per_period order by sort_order) as caps,
             array_agg(requests_per_minute order by sort_order) as rpm, array_agg(price_cents order by sort_order) as prices
      from plans group by kb_id`,
    );
    expect(plans).toHaveLength(kbs.length);
    for (const p of plans) {
      // The free taster first (lib/seed/catalog.ts TASTER_PLAN), then the three paid tiers.
      expect(p.names).toEqual(['Taster', 'Starter', 'Professional', 'Enterprise']);
      expect(p.caps.map(Number)).toEqual([20, 100, 500, 2000]);
      expect(p.rpm.map(Number)).toEqual([10, 60, 120, 300]);
      expect(Number(p.prices[0])).toBe(0);
    }
    expect(new Set(plans.map((p) => p.prices.join('/'))).size).toBeGreaterThan(5);
  });

  it('has accented titles in French, German and Spanish', async () => {
    const langs = await rows<{ language: string; title: string }>(db, sql`select language, title from knowledge_bases where language <> 'en'`);
    expect(new Set(langs.map((l) => l.language))).toEqual(new Set(['fr', 'de', 'es']));
    expect(langs.map((l) => l.title)).toEqual(expect.arrayContaining(['Guide de la Société par actions simplifiée', 'Constitución Española Comentada']));
  });

  it('derives the counters from subscriptions and usage rows', async () => {
    const before = await rows<{ id: string; s: number; q: number }>(
      db,
      sql`select id, subscribers_count as s, query_volume as q from knowledge_bases order by id`,
    );
    await db.execute(sql`update knowledge_bases set subscribers_count = 0, query_volume = 0`);
    await recomputeCatalogCounters(db);
    const after = await rows<{ id: string; s: number; q: number }>(
      db,
      sql`select id, subscribers_count as s, query_volume as q from knowledge_bases order by id`,
    );
    expect(after).toEqual(before);
    const check = firstRow(
      await rows<{ s: number; q: number }>(
        db,
        sql`
      select (select count(*)::int from subscriptions where status = 'active') as s, (select coalesce(sum(queries), 0)::int from usage_daily) as q`,
      ),
    );
    expect(before.reduce((a, r) => a + Number(r.s), 0)).toBe(check.s);
    expect(before.reduce((a, r) => a + Number(r.q), 0)).toBe(check.q);
    expect(check.s).toBeGreaterThan(100);
  });

  it('has subscriptions in varied states, never over a plan cap, buyers who cannot sign in', async () => {
    const states = await rows<{ status: string }>(db, sql`select distinct status::text as status from subscriptions`);
    expect(states.map((s) => s.status).sort()).toEqual(['active', 'expired', 'past_due']);
    const [over] = await rows<{ n: number }>(
      db,
      sql`
      select count(*)::int as n from usage_periods u join subscriptions s on s.id = u.subscription_id join plans p on p.id = s.plan_id
      where u.used > p.queries_per_period`,
    );
    expect(over?.n).toBe(0);
    const [current] = await rows<{ n: number }>(
      db,
      sql`
      select count(*)::int as n from subscriptions s where s.status = 'active'
      and not exists (select 1 from usage_periods u where u.subscription_id = s.id and u.period_start = s.current_period_start)`,
    );
    expect(current?.n).toBe(0);
    const [withPassword] = await rows<{ n: number }>(db, sql`select count(*)::int as n from users where password_hash is not null`);
    expect(withPassword?.n).toBe(0);
    const [oldUsage] = await rows<{ d: string }>(db, sql`select min(day)::text as d from usage_daily`);
    expect(new Date(`${oldUsage?.d}T00:00:00Z`).getTime()).toBeGreaterThanOrEqual(NOW.getTime() - 91 * 86_400_000);
  });

  it('is deterministic: ids, texts and subscriber counts do not depend on the seeding date', async () => {
    const read = (database: Database) =>
      rows<{ id: string; slug: string; title: string; description: string; s: number }>(
        database,
        sql`
        select id, slug, title, description, subscribers_count as s from knowledge_bases order by slug`,
      );
    expect(await read(other)).toEqual(await read(db));
  });

  it('is idempotent: a second run changes nothing', async () => {
    const count = async () =>
      firstRow(await rows<{ n: number }>(db, sql`select (select count(*) from knowledge_bases) + (select count(*) from subscriptions) as n`)).n;
    const before = await count();
    expect((await seedCatalog(db)).skipped).toBe(true);
    expect(await count()).toBe(before);
  });
});
