import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { DailyOutcomes } from '@/lib/publishing';
import { changeText, comparisonText, OutcomesChart } from './analytics-view';

const day = (d: string, over: Partial<DailyOutcomes> = {}): DailyOutcomes => ({
  day: d,
  answered: 0,
  abstained: 0,
  previews: 0,
  refused: 0,
  errors: 0,
  errorsByCode: {},
  refusedByCode: {},
  ...over,
});

describe('changeText', () => {
  it.each<[number, number, string]>([
    [12, 9, '+3 vs the previous 7 days'],
    [9, 12, '−3 vs the previous 7 days'],
    [4, 4, 'same as the previous 7 days'],
  ])('%d after %d → %s', (now, before, expected) => expect(changeText(now, before, 'the previous 7 days')).toBe(expected));
});

describe('comparisonText', () => {
  it.each<[Parameters<typeof comparisonText>[0], string]>([
    [{ period: { kind: 'days', days: 30 }, days: 30, previousFrom: '2026-04-21', previousTo: '2026-05-20' }, 'the previous 30 days'],
    // A past month against the whole month before; a month in progress against the same days of the month before.
    [{ period: { kind: 'month', month: '2026-03' }, days: 31, previousFrom: '2026-02-01', previousTo: '2026-02-28' }, 'Feb 2026'],
    [{ period: { kind: 'month', month: '2026-05' }, days: 20, previousFrom: '2026-04-01', previousTo: '2026-04-20' }, 'Apr 1–20'],
  ])('%j → %s', (view, expected) => expect(comparisonText(view)).toBe(expected));
});

describe('OutcomesChart', () => {
  it('stacks previews and refusals beside answers, and draws the previous period as a daily average', () => {
    const html = renderToStaticMarkup(
      createElement(OutcomesChart, {
        days: [day('2026-05-19', { answered: 3, previews: 2 }), day('2026-05-20', { refused: 4, errors: 1 })],
        previous: { answered: 4, abstained: 0, previews: 0, refused: 0, errors: 0 },
        title: 'KB: requests per day',
      }),
    );
    expect(html).toContain('3 answered, 0 abstained (free), 2 free previews, 0 refused (cap or rate limit), 0 errors');
    expect(html).toContain('10 in all, against 4 in the previous 2 days');
    expect(html).toContain('previous 2 days: 2 a day');
    expect(html).toContain('background:#b45309'); // the refused segment
  });
});
