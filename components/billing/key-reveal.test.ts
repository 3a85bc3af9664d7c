import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { firstRequestCommands, KeyReveal, queryCostText } from './key-reveal';

const key = 'alm_sk_test_0123456789abcdefghijABCDEFGHIJ012345';

describe('the first requests of a new key (issue 32)', () => {
  it('asks the listing’s sample question, and checks the key on the free usage endpoint', () => {
    const c = firstRequestCommands({ apiKey: key, kbId: 'kb_1', baseUrl: 'https://almanac.test/', sampleQuestion: "What's the veto override vote?" });
    expect(c.sample).toBe(true);
    expect(c.query).toContain('https://almanac.test/kb/kb_1/query');
    expect(c.query).toContain(`-d '{"query":"What’s the veto override vote?"}'`); // the shell quote stays closed
    expect(c.usage).toBe(`curl https://almanac.test/kb/kb_1/usage \\\n  -H "Authorization: Bearer ${key}"`);
    expect(firstRequestCommands({ apiKey: key, kbId: 'kb_1', baseUrl: 'https://almanac.test', sampleQuestion: null })).toMatchObject({
      sample: false,
      query: expect.stringContaining('Your question here'),
    });
  });

  it('says what a question costs, in the buyer’s numbers', () => {
    expect(queryCostText(null)).toBe('An answer with citations counts as one query against your plan; an answer that finds nothing relevant is free.');
    expect(queryCostText({ remaining: 100, cap: 100 })).toMatch(/You have 100 queries of 100 left this period\.$/);
    expect(queryCostText({ remaining: 1, cap: 100 })).toMatch(/You have 1 query of 100 left/);
    expect(queryCostText({ remaining: 0, cap: 100 })).toMatch(/used up, so it will be refused with query_cap_exceeded/);
  });

  it('renders both commands with the key', () => {
    const html = renderToStaticMarkup(
      createElement(KeyReveal, {
        apiKey: key,
        kbId: 'kb_1',
        baseUrl: 'https://almanac.test',
        sampleQuestion: 'Who signs treaties?',
        usage: { remaining: 20, cap: 20 },
      }),
    );
    expect(html).toContain('data-testid="usage-command"');
    expect(html).toContain('Who signs treaties?');
    expect(html).toContain('You have 20 queries of 20 left this period.');
  });
});
