import { describe, expect, it } from 'vitest';
import { addMonthsClamped, periodBounds, periodContaining } from './billing-period';

const d = (iso: string) => new Date(iso);

describe('addMonthsClamped', () => {
  it.each([
    ['2026-01-31T10:15:30.123Z', 1, '2026-02-28T10:15:30.123Z'],
    ['2026-01-31T10:15:30.123Z', 2, '2026-03-31T10:15:30.123Z'],
    ['2026-01-31T10:15:30.123Z', 3, '2026-04-30T10:15:30.123Z'],
    ['2026-01-31T10:15:30.123Z', 4, '2026-05-31T10:15:30.123Z'],
    ['2028-01-31T00:00:00.000Z', 1, '2028-02-29T00:00:00.000Z'], // leap year
    ['2028-02-29T23:59:59.999Z', 12, '2029-02-28T23:59:59.999Z'],
    ['2028-02-29T23:59:59.999Z', 48, '2032-02-29T23:59:59.999Z'],
    ['2100-01-29T00:00:00.000Z', 1, '2100-02-28T00:00:00.000Z'], // 2100 is not a leap year
    ['2000-01-30T00:00:00.000Z', 1, '2000-02-29T00:00:00.000Z'], // 2000 is
    ['2026-12-15T08:00:00.000Z', 1, '2027-01-15T08:00:00.000Z'], // Dec → Jan
    ['2026-12-31T08:00:00.000Z', 2, '2027-02-28T08:00:00.000Z'],
    ['2026-03-31T00:00:00.000Z', -1, '2026-02-28T00:00:00.000Z'],
    ['2026-01-15T00:00:00.000Z', -1, '2025-12-15T00:00:00.000Z'],
    ['2026-05-31T12:00:00.000Z', 0, '2026-05-31T12:00:00.000Z'],
    ['2026-08-31T12:00:00.000Z', 1, '2026-09-30T12:00:00.000Z'],
  ])('%s + %i months = %s', (anchor, n, expected) => {
    expect(addMonthsClamped(d(anchor), n).toISOString()).toBe(expected);
  });

  it('never drifts: each boundary is computed from the anchor', () => {
    const anchor = d('2026-01-31T12:00:00.000Z');
    const days = Array.from({ length: 13 }, (_, i) => addMonthsClamped(anchor, i).getUTCDate());
    expect(days).toEqual([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31, 31]);
  });
});

describe('periodBounds', () => {
  it('gives consecutive, gap-free periods', () => {
    const anchor = d('2027-10-31T23:30:00.000Z');
    for (let i = 0; i < 30; i++) {
      const current = periodBounds(anchor, i);
      const next = periodBounds(anchor, i + 1);
      expect(next.start.getTime()).toBe(current.end.getTime());
      expect(current.end.getTime()).toBeGreaterThan(current.start.getTime());
    }
    expect(periodBounds(anchor, 4)).toEqual({ start: d('2028-02-29T23:30:00.000Z'), end: d('2028-03-31T23:30:00.000Z') });
  });
});

describe('periodContaining', () => {
  const anchor = d('2026-01-31T10:00:00.000Z');
  it.each([
    ['2026-01-31T10:00:00.000Z', 0, '2026-01-31T10:00:00.000Z', '2026-02-28T10:00:00.000Z'],
    ['2026-02-28T09:59:59.999Z', 0, '2026-01-31T10:00:00.000Z', '2026-02-28T10:00:00.000Z'],
    // The exact end instant belongs to the next period.
    ['2026-02-28T10:00:00.000Z', 1, '2026-02-28T10:00:00.000Z', '2026-03-31T10:00:00.000Z'],
    ['2026-03-01T00:00:00.000Z', 1, '2026-02-28T10:00:00.000Z', '2026-03-31T10:00:00.000Z'],
    ['2026-03-31T09:59:59.999Z', 1, '2026-02-28T10:00:00.000Z', '2026-03-31T10:00:00.000Z'],
    ['2026-03-31T10:00:00.000Z', 2, '2026-03-31T10:00:00.000Z', '2026-04-30T10:00:00.000Z'],
    ['2026-04-30T10:00:00.000Z', 3, '2026-04-30T10:00:00.000Z', '2026-05-31T10:00:00.000Z'],
    ['2026-12-31T10:00:00.000Z', 11, '2026-12-31T10:00:00.000Z', '2027-01-31T10:00:00.000Z'],
    ['2027-01-15T00:00:00.000Z', 11, '2026-12-31T10:00:00.000Z', '2027-01-31T10:00:00.000Z'],
    ['2028-02-29T10:00:00.000Z', 25, '2028-02-29T10:00:00.000Z', '2028-03-31T10:00:00.000Z'],
    ['2028-02-29T09:00:00.000Z', 24, '2028-01-31T10:00:00.000Z', '2028-02-29T10:00:00.000Z'],
    // Before the anchor: period 0.
    ['2025-06-01T00:00:00.000Z', 0, '2026-01-31T10:00:00.000Z', '2026-02-28T10:00:00.000Z'],
  ])('now=%s → period %i [%s, %s)', (now, index, start, end) => {
    const period = periodContaining(anchor, d(now));
    expect(period).toEqual({ index, start: d(start), end: d(end) });
  });

  it('agrees with a brute-force scan over many instants and anchors', () => {
    const anchors = ['2026-01-31T23:59:59.999Z', '2024-02-29T00:00:00.000Z', '2026-12-31T12:00:00.000Z', '2026-06-15T06:30:00.000Z'].map(d);
    for (const a of anchors) {
      for (let step = 0; step < 800; step++) {
        const now = new Date(a.getTime() + step * 37 * 3600 * 1000 + step);
        let index = 0;
        while (addMonthsClamped(a, index + 1).getTime() <= now.getTime()) index++;
        const period = periodContaining(a, now);
        expect(period.index).toBe(index);
        expect(period.start.getTime()).toBeLessThanOrEqual(now.getTime());
        expect(period.end.getTime()).toBeGreaterThan(now.getTime());
      }
    }
  });
});
