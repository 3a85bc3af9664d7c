/**
 * Number, price and date formatting for every screen and every email (pure; unit-tested in format.test.ts), so a page
 * and a notice about the same subscription write the same date. Dates render in UTC, so server and browser agree.
 */

/** Monthly price from integer minor units: 1900 usd → "$19", 1950 usd → "$19.50", 0 → "Free". */
export function formatPrice(cents: number, currency: string): string {
  if (cents === 0) return 'Free';
  const whole = cents % 100 === 0;
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);
}

/** A plan's price in running text: "$19/month", or "free" (never "Free/month"). */
export function formatMonthlyPrice(cents: number, currency: string): string {
  return cents === 0 ? 'free' : `${formatPrice(cents, currency)}/month`;
}

/** "Starter plan · $19/month", "Taster plan · free", and a free plan named "Free" just "Free plan". */
export function describePlan(plan: { name: string; priceCents: number; currency: string }): string {
  if (plan.priceCents === 0 && /^free( plan)?$/i.test(plan.name.trim())) return 'Free plan';
  return `${plan.name} plan · ${formatMonthlyPrice(plan.priceCents, plan.currency)}`;
}

/** Always with cents so a ledger column lines up: 1000 usd → "$10.00" (a price list uses formatPrice). */
export function formatAmount(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase(), minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    cents / 100,
  );
}

export function formatCompact(n: number): string {
  return new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

export function formatInteger(n: number): string {
  return new Intl.NumberFormat('en-US').format(n);
}

export function formatDate(value: Date | string | null | undefined): string {
  if (!value) return '—';
  const d = typeof value === 'string' ? new Date(value) : value;
  return new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(d);
}

/** "Jan 31, 2026, 11:30 PM UTC"; "never" when there is no instant (a key never used). */
export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return 'never';
  const d = typeof value === 'string' ? new Date(value) : value;
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(d) + ' UTC';
}

export function formatTime(value: Date | string): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  return new Intl.DateTimeFormat('en-US', { timeStyle: 'short', timeZone: 'UTC' }).format(d) + ' UTC';
}

export function formatDayMonth(value: Date | string): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(d);
}

/** "Oct 2026" for a month kept as "2026-10" (UTC). */
export function formatMonth(month: string): string {
  return new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00.000Z`));
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatInteger(n)} ${n === 1 ? one : many}`;
}
