import { describe, expect, it } from 'vitest';
import { changesTerms, normaliseTags, parsePriceToCents, planSchema, publisherTransition } from './rules';

describe('normaliseTags', () => {
  it.each([
    ['Ecology, ecology ,  FIELD methods', ['ecology', 'field-methods']],
    [['  a ', 'A', '', 'b'], ['a', 'b']],
    [',,', []],
    ['Café, cafe\u0301', ['café']],
  ] as const)('%o → %o', (input, expected) => {
    expect(normaliseTags(input as string | string[])).toEqual(expected);
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
