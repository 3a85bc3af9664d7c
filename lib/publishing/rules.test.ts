import { describe, expect, it } from 'vitest';
import { createKnowledgeBaseSchema } from './knowledge-bases';
import {
  changesTerms,
  listingSchema,
  normaliseLineBreaks,
  normaliseTags,
  parsePriceToCents,
  planSchema,
  publisherProfileSchema,
  publisherTransition,
} from './rules';

describe('normaliseTags', () => {
  it.each([
    ['Ecology, ecology ,  FIELD methods', ['ecology', 'field-methods']],
    [
      ['  a ', 'A', '', 'b'],
      ['a', 'b'],
    ],
    [',,', []],
    ['Café, cafe\u0301', ['café']],
  ] as const)('%o → %o', (input, expected) => {
    expect(normaliseTags(input as string | string[])).toEqual(expected);
  });
});

describe('line breaks in free text', () => {
  const listing = { title: 'Fenland birds', summary: 'Field notes on fenland birds.', category: 'research', tags: '', language: 'en', licence: 'CC BY 4.0' };

  it('normalises CRLF and lone CR to LF', () => {
    expect(normaliseLineBreaks('a\r\nb\rc\nd\r\n\r\ne')).toBe('a\nb\nc\nd\n\ne');
  });

  it('counts a line break in the description once, as the browser field does, and stores it as LF', () => {
    // 5,000 lines of one letter: 9,999 characters with LF (what the field's maxLength counted), 14,998 with CRLF (what a browser submits).
    const text = Array.from({ length: 5_000 }, () => 'x').join('\n');
    const parsed = listingSchema.safeParse({ ...listing, description: text.replaceAll('\n', '\r\n'), sampleQuestions: '' });
    expect(parsed.success && parsed.data.description).toBe(text);
    const tooLong = listingSchema.safeParse({ ...listing, description: `${text}\r\nxx`, sampleQuestions: '' });
    expect(tooLong.error?.issues[0]?.message).toBe('The description has at most 10,000 characters.');
  });

  it('splits sample questions on CRLF, CR or LF', () => {
    const parsed = listingSchema.parse({
      ...listing,
      description: '',
      sampleQuestions: 'When do bitterns boom?\r\nWhere do cranes roost?\rWhat eats eels?\r\n\r\n',
    });
    expect(parsed.sampleQuestions).toEqual(['When do bitterns boom?', 'Where do cranes roost?', 'What eats eels?']);
  });

  it('stores the bio and an operator-created description with LF', () => {
    const bio = publisherProfileSchema.parse({
      name: 'Fen Society',
      slug: 'fen-society',
      websiteUrl: '',
      bio: 'One.\r\nTwo.',
      contactEmail: 'a@example.org',
    }).bio;
    expect(bio).toBe('One.\nTwo.');
    const kb = createKnowledgeBaseSchema.parse({
      title: 'Fens',
      publisher: 'Fen Society',
      category: 'research',
      summary: 'Field notes on the fens.',
      description: 'One.\r\n\r\nTwo.\r',
    });
    expect(kb.description).toBe('One.\n\nTwo.');
  });
});

describe('parsePriceToCents', () => {
  it.each([
    ['0', 0],
    ['19', 1900],
    ['19.5', 1950],
    ['$19.99', 1999],
    [' 7.05 ', 705],
    ['19.999', null],
    ['-1', null],
    ['1e3', null],
    ['', null],
  ])('%s → %s', (input, expected) => expect(parsePriceToCents(input)).toBe(expected));
});

describe('planSchema', () => {
  const schema = planSchema(100);
  const base = { name: 'Free', currency: 'usd', requestsPerMinute: '60' };
  it.each([
    [{ price: '0', queriesPerPeriod: '100' }, true],
    [{ price: '0', queriesPerPeriod: '101' }, false],
    [{ price: '0.49', queriesPerPeriod: '10' }, false],
    [{ price: '5', queriesPerPeriod: '5000' }, true],
    [{ price: '5', queriesPerPeriod: '1.5' }, false],
    [{ price: '5', queriesPerPeriod: '0' }, false],
  ])('%o valid: %s', (input, valid) => expect(schema.safeParse({ ...base, ...input }).success).toBe(valid));

  // Each refusal says what is wrong with that value: a well-formed but too large number is told its limit.
  const firstMessage = (input: object) => {
    const result = schema.safeParse({ ...base, ...input });
    return result.success ? null : result.error.issues[0]!.message;
  };
  it.each([
    [{ price: '1000000', queriesPerPeriod: '10' }, 'A monthly price is at most 999,999.99.'],
    [{ price: '19.999', queriesPerPeriod: '10' }, 'Enter a monthly price such as 19 or 19.50 (0 for a free plan).'],
    [{ price: 'nineteen', queriesPerPeriod: '10' }, 'Enter a monthly price such as 19 or 19.50 (0 for a free plan).'],
    [{ price: '5', queriesPerPeriod: '99999999999999999999' }, 'Queries per month must be at most 10,000,000.'],
    [{ price: '5', queriesPerPeriod: '12.5' }, 'Queries per month must be a whole number.'],
    [{ price: '5', queriesPerPeriod: '100', requestsPerMinute: '100000' }, 'Requests per minute must be at most 10,000.'],
  ])('%o → %s', (input, message) => expect(firstMessage(input)).toBe(message));
});

describe('changesTerms', () => {
  const plan = { priceCents: 900, currency: 'usd', queriesPerPeriod: 100, requestsPerMinute: 60 };
  it.each([
    [{}, false],
    [{ priceCents: 1000 }, true],
    [{ currency: 'eur' }, true],
    [{ queriesPerPeriod: 101 }, true],
    [{ requestsPerMinute: 61 }, true],
  ])('%o → %s', (change, expected) => expect(changesTerms(plan, { ...plan, ...change })).toBe(expected));
});

describe('publisherTransition', () => {
  it.each([
    ['draft', 'publish', 'published'],
    ['unpublished', 'publish', 'published'],
    ['published', 'unpublish', 'unpublished'],
    ['published', 'publish', null],
    ['draft', 'unpublish', null],
    ['suspended', 'publish', null],
    ['suspended', 'unpublish', null],
    ['archived', 'publish', null],
  ] as const)('%s --%s→ %s', (from, action, to) => {
    const result = publisherTransition(from, action);
    expect(result.ok ? result.to : null).toBe(to);
  });
});
