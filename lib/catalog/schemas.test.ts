import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseListingParams } from './params';
import { listingParametersSchema } from './schemas';

/**
 * The listing's parameters are read by `parseListingParams` and described to clients by `listingParametersSchema`
 * (served as JSON Schema in the OpenAPI document). At every bound the schema states, both accept or both refuse; the
 * bounds are read from the schema, so a changed limit moves the cases with it.
 */

type Bounds = { maxLength: number; maxItems: number; minimum: number; maximum: number; enum: string[]; items: { maxLength: number } };
const served = z.toJSONSchema(listingParametersSchema, { target: 'draft-2020-12', io: 'input' }) as { properties: Record<string, Bounds> };
const validate = new Ajv2020({ strict: false }).compile(served);
const bound = served.properties;

/** One case: the query string a client sends, and the same parameters as typed values. */
const cases: [string, Record<string, string | string[]>, Record<string, unknown>][] = [
  ['query at its limit', { query: 'a'.repeat(bound.query!.maxLength) }, { query: 'a'.repeat(bound.query!.maxLength) }],
  ['query over its limit', { query: 'a'.repeat(bound.query!.maxLength + 1) }, { query: 'a'.repeat(bound.query!.maxLength + 1) }],
  ['query at its limit in code points (emoji)', { query: '😀'.repeat(bound.query!.maxLength) }, { query: '😀'.repeat(bound.query!.maxLength) }],
  ...[bound.tags!.maxItems, bound.tags!.maxItems + 1].map((n): [string, Record<string, string[]>, Record<string, unknown>] => {
    const tags = Array.from({ length: n }, (_, i) => `t${i}`);
    return [`${n} tags`, { tags }, { tags }];
  }),
  ...[bound.tags!.items.maxLength, bound.tags!.items.maxLength + 1].map((n): [string, Record<string, string>, Record<string, unknown>] => [
    `a tag of ${n} characters`,
    { tags: 'x'.repeat(n) },
    { tags: ['x'.repeat(n)] },
  ]),
  ...[bound.page!.minimum - 1, bound.page!.minimum, bound.page!.maximum, bound.page!.maximum + 1].map(
    (n): [string, Record<string, string>, Record<string, unknown>] => [`page ${n}`, { page: String(n) }, { page: n }],
  ),
  ...[bound.pageSize!.minimum - 1, bound.pageSize!.minimum].map((n): [string, Record<string, string>, Record<string, unknown>] => [
    `pageSize ${n}`,
    { pageSize: String(n) },
    { pageSize: n },
  ]),
  ...[...bound.sort!.enum, 'cheapest'].map((s): [string, Record<string, string>, Record<string, unknown>] => [`sort ${s}`, { sort: s }, { sort: s }]),
  ...[...bound.category!.enum, 'sports'].map((c): [string, Record<string, string>, Record<string, unknown>] => [
    `category ${c}`,
    { category: c },
    { category: c },
  ]),
  ...['es', 'pt-BR', 'english'].map((l): [string, Record<string, string>, Record<string, unknown>] => [`language ${l}`, { language: l }, { language: l }]),
];

describe('the listing parameters: the parser and the served schema agree at every bound', () => {
  it.each(cases)('%s', (_, sent, typed) => {
    const parsed = parseListingParams(sent);
    expect(parsed.ok, parsed.ok ? 'accepted' : parsed.message).toBe(validate(typed));
  });

  it('has cases on both sides', () => {
    const outcomes = cases.map(([, sent]) => parseListingParams(sent).ok);
    expect(outcomes).toContain(true);
    expect(outcomes).toContain(false);
  });
});
