import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PlanCards, planPriceSuffix } from './plan-cards';

const plan = (over: Partial<{ id: string; name: string; priceCents: number; queriesPerPeriod: number; requestsPerMinute: number }>) => ({
  id: 'plan_1',
  name: 'Starter',
  priceCents: 1_900,
  currency: 'usd',
  queriesPerPeriod: 100,
  requestsPerMinute: 60,
  ...over,
});
/** The page's text as a screen reader reads it: tags dropped, sr-only text included. */
const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');

describe('planPriceSuffix', () => {
  it('reads a paid plan with its monthly price and a free one as free', () => {
    expect(planPriceSuffix({ priceCents: 1_950, currency: 'usd' })).toBe(' plan for $19.50 a month');
    expect(planPriceSuffix({ priceCents: 0, currency: 'usd' })).toBe(' plan, free');
  });
});

describe('PlanCards', () => {
  it('says "1 query" and "1 request" in the singular', () => {
    const html = text(
      renderToStaticMarkup(createElement(PlanCards, { items: [{ plan: plan({ queriesPerPeriod: 1, requestsPerMinute: 1 }), offer: { kind: 'buy' } }] })),
    );
    expect(html).toContain('1 query a month');
    expect(html).toContain('Up to 1 request a minute');
    expect(html).not.toMatch(/1 queries|1 requests/);
  });

  it('formats larger numbers with separators, in the plural', () => {
    const html = text(
      renderToStaticMarkup(createElement(PlanCards, { items: [{ plan: plan({ queriesPerPeriod: 2_000, requestsPerMinute: 300 }), offer: { kind: 'buy' } }] })),
    );
    expect(html).toContain('2,000 queries a month');
    expect(html).toContain('Up to 300 requests a minute');
  });

  it('names the buttons "Buy Starter plan for $19 a month" and "Get Free taster plan, free"', () => {
    const html = text(
      renderToStaticMarkup(
        createElement(PlanCards, {
          items: [
            { plan: plan({ id: 'plan_free', name: 'Free taster', priceCents: 0 }), offer: { kind: 'buy' } },
            { plan: plan({}), offer: { kind: 'buy' } },
          ],
        }),
      ),
    );
    expect(html).toContain('Get Free taster plan, free');
    expect(html).toContain('Buy Starter plan for $19 a month');
    expect(html).not.toContain('for Free a month');
  });

  it('names a downgrade to a free plan without "for Free a month"', () => {
    const html = text(
      renderToStaticMarkup(
        createElement(PlanCards, { items: [{ plan: plan({ name: 'Free taster', priceCents: 0 }), offer: { kind: 'downgrade', subscriptionId: 'sub_1' } }] }),
      ),
    );
    expect(html).toContain('Downgrade to Free taster plan, free');
  });
});

describe('a free plan named "Free"', () => {
  it('reads neither "Free / Free" nor "Get Free": its price is $0 and its button "Start free"', () => {
    const html = text(renderToStaticMarkup(createElement(PlanCards, { items: [{ plan: plan({ name: 'Free', priceCents: 0 }), offer: { kind: 'buy' } }] })));
    expect(html).toContain('Free$0');
    expect(html).toContain('Start free');
    expect(html).not.toMatch(/Get Free|FreeFree/);
  });
});
