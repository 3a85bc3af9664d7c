import { beforeAll, describe, expect, it } from 'vitest';
import { GET } from '@/app/api/marketplace/knowledge-bases/route';
import { knowledgeBases, publishers } from '@/db/schema';
import { createTestDatabase } from '../support/db';

/**
 * Full-text search of the listing on a small fixture catalogue, so every expected result is exact: which field a
 * word lives in (title, summary, description, publisher name), stemming, last-word prefix, case and accents, and
 * hostile text that must never reach to_tsquery unescaped.
 */

const BASE = 'http://almanac.test/api/marketplace/knowledge-bases';

async function search(query: string, extra = '') {
  const response = await GET(new Request(`${BASE}?query=${encodeURIComponent(query)}${extra}`));
  const body = (await response.json()) as any;
  return { status: response.status, body, slugs: response.status === 200 ? (body.items as { id: string }[]).map((i) => SLUG_OF.get(i.id)).sort() : [] };
}

const SLUG_OF = new Map<string, string>();

const FIXTURES = [
  {
    slug: 'constitution',
    publisher: 'harbor',
    title: 'Constitution Handbook',
    summary: 'Plain text of founding charters.',
    description: 'Covers amendments and ratification debates.',
    language: 'en',
  },
  {
    slug: 'societe',
    publisher: 'lumiere',
    title: 'Guide de la Société civile',
    summary: 'Les règles de la SOCIÉTÉ civile immobilière.',
    description: 'Statuts, gérance et assemblées.',
    language: 'fr',
  },
  {
    slug: 'tides',
    publisher: 'harbor',
    title: 'Ocean Tides Atlas',
    summary: 'Maps of tidal ranges along every coast.',
    description: 'Includes a chapter on lunar cycles and the history of zymurgy aboard ships.',
    language: 'en',
  },
  {
    slug: 'herbal',
    publisher: 'quill',
    title: 'Herbal Remedies Review',
    summary: 'A review of phytotherapy evidence.',
    description: 'Systematic appraisal of plant-based treatments.',
    language: 'en',
  },
  {
    slug: 'draft',
    publisher: 'harbor',
    title: 'Constitution Drafts Secret',
    summary: 'Unpublished constitutional notes.',
    description: 'Never listed.',
    language: 'en',
    status: 'draft' as const,
  },
];

beforeAll(async () => {
  const { db } = await createTestDatabase();
  await db.insert(publishers).values([
    { id: 'pub_harbor', slug: 'harbor-legal', name: 'Harbor Legal Press' },
    { id: 'pub_lumiere', slug: 'editions-lumiere', name: 'Éditions Lumière' },
    { id: 'pub_quill', slug: 'quillfeather', name: 'Quillfeather Institute' },
  ]);
  await db.insert(knowledgeBases).values(
    FIXTURES.map((f, i) => ({
      id: `kb_fixture${i}`,
      publisherId: `pub_${f.publisher}`,
      slug: f.slug,
      title: f.title,
      summary: f.summary,
      description: f.description,
      category: 'legal' as const,
      tags: ['reference'],
      language: f.language,
      status: f.status ?? ('published' as const),
    })),
  );
  FIXTURES.forEach((f, i) => SLUG_OF.set(`kb_fixture${i}`, f.slug));
});

describe('search matches each field', () => {
  it.each<[string, string, string[]]>([
    ['title', 'atlas', ['tides']],
    ['title (two words)', 'herbal remedies', ['herbal']],
    ['summary', 'phytotherapy', ['herbal']],
    ['summary (second word)', 'tidal ranges', ['tides']],
    ['description', 'zymurgy', ['tides']],
    ['description (accented)', 'gérance', ['societe']],
    ['publisher name', 'quillfeather', ['herbal']],
    ['publisher name, two words', 'Harbor Legal', ['constitution', 'tides']],
    ['publisher with accents, typed without', 'editions lumiere', ['societe']],
  ])('%s: %s', async (_field, query, expected) => {
    const { status, slugs } = await search(query);
    expect(status).toBe(200);
    expect(slugs).toEqual(expected);
  });

  it('ANDs words across fields and narrows', async () => {
    expect((await search('ocean zymurgy')).slugs).toEqual(['tides']);
    expect((await search('ocean phytotherapy')).slugs).toEqual([]);
  });

  it('never finds drafts, even by their own words', async () => {
    expect((await search('secret')).slugs).toEqual([]);
    expect((await search('drafts')).slugs).toEqual([]);
  });
});

describe('stemming and prefix of the last word', () => {
  it.each<[string, string[]]>([
    ['constit', ['constitution']],
    ['Constitu', ['constitution']],
    ['constitutions', ['constitution']],
    ['charter', ['constitution']],
    ['ratify', []], // different stem; not a prefix of "ratification" as typed
    ['ratif', ['constitution']],
    // Typed past the stem: "constitutio" is longer than the stem "constitut" but begins "constitution".
    ['constitutio', ['constitution']],
    ['ratificatio', ['constitution']],
    ['handbook constitutio', ['constitution']],
    ['amendmen', ['constitution']],
    ['handbook constit', ['constitution']],
    ['constit handbook', []], // only the LAST word is a prefix
    ['herb rem', []],
    ['herbal rem', ['herbal']],
    ['phyto', ['herbal']],
  ])('%s', async (query, expected) => {
    expect((await search(query)).slugs).toEqual(expected);
  });
});

describe('case and accent insensitivity', () => {
  it.each(['societe', 'SOCIETE', 'Société', 'SOCIÉTÉ', 'société', 'soc', 'SOCIÉ', 'immobiliere', 'règles'])('%s finds the Société guide', async (query) => {
    expect((await search(query)).slugs).toEqual(['societe']);
  });

  it.each(['CONSTITUTION', 'Constitution', 'cOnStItUtIoN'])('%s', async (query) => {
    expect((await search(query)).slugs).toEqual(['constitution']);
  });
});

describe('hostile search text is answered, never a 500', () => {
  it.each<[string, string[] | null]>([
    ["'", []],
    ['"', []],
    ['&|!():*', []],
    ['\\', []],
    ['<->', []],
    ['!!!', []],
    ['   ...   ', []],
    ["constitution'", ['constitution']],
    ["'constitution", ['constitution']],
    ['"constitution"', ['constitution']],
    ['(constit', ['constitution']],
    ['constit:*', ['constitution']],
    ['!constitution', ['constitution']],
    ['constitution & ocean', []],
    ['constitution | ocean', []],
    ['constitution <-> handbook', ['constitution']],
    ['constitution\\', ['constitution']],
    ["' or 1=1 --", null],
    ["'); drop table knowledge_bases; --", null],
    ['a:* & b:*', null],
    ['🙂 constitution', ['constitution']],
    ['the', null],
    ['of the and', null],
    ['x'.repeat(200), []],
  ])('%j', async (query, expected) => {
    const { status, slugs, body } = await search(query);
    expect(status).toBe(200);
    expect(body.error).toBeUndefined();
    if (expected) expect(slugs).toEqual(expected);
  });

  it('a control character (NUL) is 400, not a search and never a database error (docs/api.md §7.2)', async () => {
    const { status, body } = await search('\u0000constitution');
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_parameter');
    expect(body.message).toContain('"query"');
  });

  it('201 characters is 400, not a search', async () => {
    const { status, body } = await search('c'.repeat(201));
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_parameter');
    expect(body.message).toContain('"query"');
  });

  it('the table is still intact after the injection attempts', async () => {
    expect((await search('atlas')).slugs).toEqual(['tides']);
  });
});
