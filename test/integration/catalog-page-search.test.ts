import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET } from '@/app/api/marketplace/knowledge-bases/route';
import { documents, knowledgeBases, plans, publishers } from '@/db/schema';
import { searchCatalog, type ListingParams } from '@/lib/catalog';
import { createTestDatabase } from '../support/db';

/**
 * Search that finds what buyers type on a small fixture catalogue, on both databases: titles,
 * dotted and capitalised abbreviations, possessives, the typo fallback with its suggestion, the relevance order,
 * and facet counts that follow the search and filters. The catalogue page's function (`searchCatalog`) and the
 * public API (which never corrects a search: docs/api.md §14) are both checked.
 */

const BASE = 'http://almanac.test/api/marketplace/knowledge-bases';
const FIXTURES = [
  {
    slug: 'us-constitution',
    publisher: 'civic',
    title: 'U.S. Constitution Companion',
    category: 'legal',
    tags: ['constitutional', 'united-states'],
    subscribers: 5,
    summary: 'The text of the U.S. Constitution and its amendments, with plain-language commentary.',
    description: 'Every article and the landmark cases.',
  },
  {
    slug: 'state-constitutions',
    publisher: 'civic',
    title: 'State Constitutions Digest',
    category: 'legal',
    tags: ['constitutional'],
    subscribers: 20,
    summary: 'Fifty state constitutions compared clause by clause.',
    description: 'Amendment procedures and bills of rights.',
  },
  {
    slug: 'civics',
    publisher: 'harbor',
    title: 'Civics Primer for Schools',
    category: 'education',
    tags: ['curriculum', 'united-states'],
    subscribers: 50,
    summary: 'How government works, for teachers.',
    description: 'Covers the constitution, elections and courts.',
  },
  {
    slug: 'gdpr',
    publisher: 'lexica',
    title: "GDPR Practitioner's Guide",
    category: 'legal',
    tags: ['privacy', 'europe'],
    subscribers: 9,
    summary: 'Compliance with the General Data Protection Regulation.',
    description: 'Lawful bases, data subject rights and fines.',
  },
  {
    slug: 'who',
    publisher: 'harbor',
    title: 'WHO Guidelines on Nutrition',
    category: 'health',
    tags: ['nutrition', 'guidelines'],
    subscribers: 3,
    summary: 'Recommendations on diet from the World Health Organization.',
    description: 'Sugars, salt and fats.',
  },
  {
    slug: 'dosing',
    publisher: 'harbor',
    title: 'Clinical Dosing Handbook',
    category: 'health',
    tags: ['clinical', 'guidelines'],
    subscribers: 1,
    summary: 'Doses for adults and children.',
    description: 'Renal and hepatic adjustment.',
  },
] as const;

/** The rest are English; a region tag is filtered by its primary language. */
const LANGUAGE_OF: Record<string, string> = { gdpr: 'de', who: 'fr-CA' };
const SLUG_OF = new Map<string, string>();
const slugs = (items: { id: string }[]) => items.map((i) => SLUG_OF.get(i.id));
const params = (query: string | undefined, extra: Partial<ListingParams> = {}): ListingParams => ({
  query,
  tags: [],
  sort: 'relevance',
  page: 1,
  pageSize: 12,
  ...extra,
});

async function api(qs: string) {
  const response = await GET(new Request(`${BASE}?${qs}`));
  expect(response.status).toBe(200);
  return (await response.json()) as { items: { id: string }[]; total: number };
}

let db: Awaited<ReturnType<typeof createTestDatabase>>['db'];

beforeAll(async () => {
  ({ db } = await createTestDatabase());
  await db.insert(publishers).values([
    { id: 'pub_civic', slug: 'civic-texts', name: 'Civic Texts Press' },
    { id: 'pub_harbor', slug: 'harbor', name: 'Harbor Institute' },
    { id: 'pub_lexica', slug: 'lexica', name: 'Lexica Europe' },
  ]);
  await db.insert(knowledgeBases).values(
    FIXTURES.map((f, i) => ({
      id: `kb_find${i}`,
      publisherId: `pub_${f.publisher}`,
      slug: f.slug,
      title: f.title,
      summary: f.summary,
      description: f.description,
      category: f.category,
      tags: [...f.tags],
      status: 'published' as const,
      subscribersCount: f.subscribers,
      language: LANGUAGE_OF[f.slug] ?? 'en',
    })),
  );
  FIXTURES.forEach((f, i) => SLUG_OF.set(`kb_find${i}`, f.slug));
  // A document whose title holds a word the listing's own text does not (some-words search counts it).
  const dosing = FIXTURES.findIndex((f) => f.slug === 'dosing');
  await db.insert(plans).values([
    { id: 'plan_dose_free', kbId: `kb_find${dosing}`, name: 'Taster', priceCents: 0, queriesPerPeriod: 20 },
    { id: 'plan_dose_pro', kbId: `kb_find${dosing}`, name: 'Pro', priceCents: 2_900, queriesPerPeriod: 500 },
    { id: 'plan_dose_starter', kbId: `kb_find${dosing}`, name: 'Starter', priceCents: 900, queriesPerPeriod: 100 },
    { id: 'plan_dose_retired', kbId: `kb_find${dosing}`, name: 'Old', priceCents: 100, queriesPerPeriod: 10, active: false },
  ]);
  await db.insert(documents).values({
    id: 'doc_insulin',
    kbId: `kb_find${dosing}`,
    sourceName: 'insulin.md',
    title: 'Insulin titration',
    mimeType: 'text/markdown',
    contentHash: 'x',
    byteSize: 1,
  });
});

describe('titles, publishers and abbreviations as people type them', () => {
  it.each<[string, string[]]>([
    ['U.S. Constitution Companion', ['us-constitution']],
    ['US constitution', ['us-constitution']],
    ['us constitution', ['us-constitution']],
    ['U.S.', ['us-constitution']],
    ['U.S', ['us-constitution']],
    ['GDPR', ['gdpr']],
    ['gdpr guide', ['gdpr']],
    ["Practitioner's Guide", ['gdpr']],
    ['WHO', ['who']],
    ['WHO guidelines', ['who']],
    ['Civic Texts Press', ['state-constitutions', 'us-constitution']],
  ])('%j finds %j (page and API)', async (query, expected) => {
    const page = await searchCatalog(params(query));
    expect(slugs(page.items)).toEqual(expected);
    expect(page.suggestion).toBeNull();
    expect(slugs((await api(`query=${encodeURIComponent(query)}&sort=relevance`)).items)).toEqual(expected);
  });
});

describe('typo tolerance (pg_trgm) and "Did you mean"', () => {
  it('a search that finds nothing shows the nearest words’ results and says so; the API answers what was asked', async () => {
    const page = await searchCatalog(params('constituton'));
    expect(page.suggestion).toBe('constitution');
    expect(page.showingSuggestion).toBe(true);
    expect(slugs(page.items)).toEqual(['state-constitutions', 'us-constitution', 'civics']);
    expect(page.total).toBe(3);
    expect((await api('query=constituton')).total).toBe(0);
  });

  it.each<[string, string | null]>([
    ['clinicl dosing', 'clinical dosing'],
    ['nutrtion', 'nutrition'],
    ['constitution', null], // found: nothing to correct
    ['constitutions', null], // same stem as the nearest word: it finds the same
    ['zzzzqqqq', null], // nothing near
  ])('%j suggests %j', async (query, suggestion) => {
    expect((await searchCatalog(params(query))).suggestion).toBe(suggestion);
  });
});

describe('when nothing matches every word (issue 32)', () => {
  it('shows the knowledge bases matching most of the words, counting document titles, and says so', async () => {
    // "dosing" is in a title, "insulin" only in a document title, "fines" in a description; "zebra" nowhere.
    const page = await searchCatalog(params('insulin dosing fines zebra'));
    expect(page.showingSomeWords).toBe(true);
    expect(page.someWords).toEqual(['insulin', 'dosing', 'fines']);
    expect(page.suggestion).toBeNull();
    expect(slugs(page.items)).toEqual(['dosing', 'gdpr']);
    expect(page.total).toBe(2);
    // Cards carry what is sold: the cheapest paid plan, a free plan, the language and the documents.
    expect(page.items.map((i) => i.facts)).toEqual([
      { language: 'en', documentsCount: 0, lowestPrice: { cents: 900, currency: 'usd' }, freePlan: true },
      { language: 'de', documentsCount: 0, lowestPrice: null, freePlan: false },
    ]);
    // Filters still apply; a one-word search that finds nothing stays empty; the API answers what was asked.
    expect(slugs((await searchCatalog(params('insulin dosing fines', { category: 'legal' }))).items)).toEqual(['gdpr']);
    expect(await searchCatalog(params('zebra'))).toMatchObject({ total: 0, showingSomeWords: false });
    // One word of several matches: that word's own results, facets included.
    const one = await searchCatalog(params('handbook zebra'));
    expect(one).toMatchObject({ total: 1, showingSomeWords: true, someWords: ['handbook'] });
    expect(slugs(one.items)).toEqual(['dosing']);
    expect(one.facets.total).toBe(1);
    expect((await api('query=insulin+dosing+fines')).total).toBe(0);
    // A search that matches every word is answered as before.
    expect(await searchCatalog(params('dosing handbook'))).toMatchObject({ total: 1, showingSomeWords: false });
  });
});

describe('sort=relevance', () => {
  it('ranks title matches first, then popular order; popular puts the most subscribed first', async () => {
    const relevance = ['state-constitutions', 'us-constitution', 'civics'];
    expect(slugs((await searchCatalog(params('constitution'))).items)).toEqual(relevance);
    expect(slugs((await api('query=constitution&sort=relevance')).items)).toEqual(relevance);
    expect(slugs((await api('query=constitution')).items)).toEqual(['civics', 'state-constitutions', 'us-constitution']);
  });

  it('a title holding every word comes before one holding some', async () => {
    expect(slugs((await api('query=constitution%20companion&sort=relevance')).items)).toEqual(['us-constitution']);
    expect(slugs((await api('query=guidelines&sort=relevance')).items)).toEqual(['who', 'dosing']);
  });

  it('without a search it is the popular order', async () => {
    expect((await api('sort=relevance')).items).toEqual((await api('sort=popular')).items);
  });

  it('paging never repeats or skips', async () => {
    const all = slugs((await searchCatalog(params('constitution'))).items);
    const walked = [];
    for (let page = 1; page <= 3; page++) walked.push(...slugs((await searchCatalog(params('constitution', { page, pageSize: 1 }))).items));
    expect(walked).toEqual(all);
  });
});

describe('facet counts follow the search and the filters', () => {
  const categoryCounts = (page: Awaited<ReturnType<typeof searchCatalog>>) => Object.fromEntries(page.facets.categories.map((c) => [c.category, c.count]));
  const tagCounts = (page: Awaited<ReturnType<typeof searchCatalog>>) => Object.fromEntries(page.facets.tags.map((t) => [t.tag, t.count]));

  it.each<[string, Partial<ListingParams> & { query?: string }, Record<string, number>, Record<string, number>, number]>([
    [
      'no search',
      {},
      { education: 1, policy: 0, health: 2, research: 0, legal: 3 },
      { guidelines: 2, 'united-states': 2, constitutional: 2, clinical: 1, curriculum: 1, europe: 1, nutrition: 1, privacy: 1 },
      6,
    ],
    [
      'a search',
      { query: 'constitution' },
      { education: 1, policy: 0, health: 0, research: 0, legal: 2 },
      { constitutional: 2, 'united-states': 2, curriculum: 1 },
      3,
    ],
    [
      'a search in a category',
      { query: 'constitution', category: 'legal' },
      { education: 1, policy: 0, health: 0, research: 0, legal: 2 },
      { constitutional: 2, 'united-states': 1 },
      2,
    ],
    [
      'a search and a tag',
      { query: 'constitution', tags: ['united-states'] },
      { education: 1, policy: 0, health: 0, research: 0, legal: 1 },
      { 'united-states': 2, constitutional: 1, curriculum: 1 },
      2,
    ],
    ['a tag only', { tags: ['guidelines'] }, { education: 0, policy: 0, health: 2, research: 0, legal: 0 }, { guidelines: 2, clinical: 1, nutrition: 1 }, 2],
    ['nothing found', { query: 'zzzzqqqq' }, { education: 0, policy: 0, health: 0, research: 0, legal: 0 }, {}, 0],
  ])('%s', async (_name, change, categories, tags, total) => {
    const page = await searchCatalog(params(change.query, change));
    expect(categoryCounts(page)).toEqual(categories);
    expect(tagCounts(page)).toEqual(tags);
    expect(page.total).toBe(total);
    expect(page.totalPages).toBe(Math.ceil(total / 12));
  });
});

describe('the language filter (issue 32)', () => {
  const languageCounts = (page: Awaited<ReturnType<typeof searchCatalog>>) => Object.fromEntries(page.facets.languages.map((l) => [l.language, l.count]));

  it('filters by the primary language, and counts each language with the other filters applied', async () => {
    const all = await searchCatalog(params(undefined));
    expect(languageCounts(all)).toEqual({ en: 4, de: 1, fr: 1 });
    expect(all.facets.languages.map((l) => l.language)).toEqual(['en', 'de', 'fr']); // most results first

    const french = await searchCatalog(params(undefined, { language: 'fr' }));
    expect(slugs(french.items)).toEqual(['who']);
    expect(french.total).toBe(1);
    // The category tabs and tags follow the language; the language counts leave their own filter out.
    expect(french.facets.categories.find((c) => c.category === 'health')?.count).toBe(1);
    expect(french.facets.categories.find((c) => c.category === 'legal')?.count).toBe(0);
    expect(french.facets.tags.map((t) => t.tag).sort()).toEqual(['guidelines', 'nutrition']);
    expect(languageCounts(french)).toEqual({ en: 4, de: 1, fr: 1 });

    const germanHealth = await searchCatalog(params(undefined, { language: 'de', category: 'health' }));
    expect(germanHealth.total).toBe(0);
    expect(languageCounts(germanHealth)).toEqual({ en: 1, fr: 1 });

    const searched = await searchCatalog(params('guidelines', { language: 'en' }));
    expect(slugs(searched.items)).toEqual(['dosing']);
  });

  it('is a parameter of the public listing too: case-insensitive, a region tag matches its language', async () => {
    expect(slugs((await api('language=FR-ca')).items)).toEqual(['who']);
    expect(slugs((await api('language=de&category=legal')).items)).toEqual(['gdpr']);
    expect((await api('language=xx')).total).toBe(0);
    const refused = await GET(new Request(`${BASE}?language=english`));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_parameter', message: expect.stringContaining('"language"') });
  });

  it('follows a change of a listing’s language at once (the projection’s trigger)', async () => {
    const gdpr = [...SLUG_OF].find(([, slug]) => slug === 'gdpr')![0];
    await db.update(knowledgeBases).set({ language: 'es' }).where(eq(knowledgeBases.id, gdpr));
    expect(slugs((await searchCatalog(params(undefined, { language: 'es' }))).items)).toEqual(['gdpr']);
    expect(slugs((await api('language=es&sort=new')).items)).toEqual(['gdpr']);
  });
});
