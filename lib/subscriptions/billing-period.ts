/**
 * Monthly billing periods counted from an anchor instant (the purchase), in UTC. Every boundary is computed from the
 * ANCHOR, never from the previous boundary, so a Jan 31 anchor gives Feb 28/29 then Mar 31 (not Mar 28).
 * Periods are half-open [start, end): the instant `end` belongs to the next period.
 */

export interface BillingPeriod {
  index: number;
  start: Date;
  end: Date;
}

function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/** The anchor moved by n calendar months, its day clamped to the target month's length, time of day kept. */
export function addMonthsClamped(anchor: Date, n: number): Date {
  const totalMonths = anchor.getUTCFullYear() * 12 + anchor.getUTCMonth() + n;
  const year = Math.floor(totalMonths / 12);
  const month = totalMonths - year * 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
  const result = new Date(anchor.getTime());
  result.setUTCFullYear(year, month, day);
  return result;
}

export function periodBounds(anchor: Date, index: number): { start: Date; end: Date } {
  return { start: addMonthsClamped(anchor, index), end: addMonthsClamped(anchor, index + 1) };
}

/** The period that contains `now`; instants before the anchor belong to period 0. */
export function periodContaining(anchor: Date, now: Date): BillingPeriod {
  const t = now.getTime();
  if (t < anchor.getTime()) return { index: 0, ...periodBounds(anchor, 0) };
  // The calendar-month difference is exact or one too high (when now's day/time is before the anchor's).
  let index = (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  while (index > 0 && addMonthsClamped(anchor, index).getTime() > t) index--;
  while (addMonthsClamped(anchor, index + 1).getTime() <= t) index++;
  return { index, ...periodBounds(anchor, index) };
}
