import { describe, expect, it } from 'vitest';
import { analyticsMonths, csvCell, parseAnalyticsPeriod } from './analytics';

describe('csvCell', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    // A spreadsheet drops a leading tab or carriage return and reads the formula behind it.
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', `"'\r=1+1"`],
    ['Tides, "spring"', '"Tides, ""spring"""'],
    ['line\rbreak', '"line\rbreak"'],
    ['Plain title', 'Plain title'],
    [42, '42'],
    [null, ''],
  ])('%j → %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});

describe('parseAnalyticsPeriod', () => {
  const now = new Date('2026-05-20T12:00:00Z');
  it.each<[Record<string, unknown>, ReturnType<typeof parseAnalyticsPeriod>]>([
    [{}, { kind: 'days', days: 30 }],
    [{ days: '7' }, { kind: 'days', days: 7 }],
    [{ days: '8' }, { kind: 'days', days: 30 }],
    [{ month: '2026-05' }, { kind: 'month', month: '2026-05' }],
    [{ month: ['2025-06', '2026-01'] }, { kind: 'month', month: '2025-06' }],
    // The future, beyond the twelve months offered, or malformed: the days view.
    [
      { month: '2026-06', days: '90' },
      { kind: 'days', days: 90 },
    ],
    [{ month: '2025-05' }, { kind: 'days', days: 30 }],
    [{ month: '2026-5' }, { kind: 'days', days: 30 }],
  ])('%j → %j', (search, period) => expect(parseAnalyticsPeriod(search, now)).toEqual(period));

  it('offers the current month and the eleven before, newest first', () => {
    const months = analyticsMonths(now);
    expect(months).toHaveLength(12);
    expect([months[0], months[4], months[11]]).toEqual(['2026-05', '2026-01', '2025-06']);
  });
});
