/** Display formatting shared by the marketplace pages (pure; unit-tested in format.test.ts). */

export const CATEGORIES = ['education', 'policy', 'health', 'research', 'legal'] as const;
export type CategorySlug = (typeof CATEGORIES)[number];

const CATEGORY_LABELS: Record<string, string> = {
  education: 'Education',
  policy: 'Policy',
  health: 'Health',
  research: 'Research',
  legal: 'Legal',
};

export function categoryLabel(category: string): string {
  return CATEGORY_LABELS[category] ?? category.charAt(0).toUpperCase() + category.slice(1);
}

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

/** 950 → "950", 1200 → "1.2K", 2000000 → "2M". */
export function formatCompact(n: number): string {
  return new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

export function formatInteger(n: number): string {
  return new Intl.NumberFormat('en-US').format(n);
}

/** Dates are shown in UTC so server and browser render the same text. */
export function formatDate(iso: string | Date): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(d);
}

const LANGUAGE_NAMES: Record<string, string> = { en: 'English', fr: 'French', de: 'German', es: 'Spanish', it: 'Italian', pt: 'Portuguese', nl: 'Dutch' };

export function languageName(tag: string): string {
  return LANGUAGE_NAMES[tag.toLowerCase().split('-')[0] ?? ''] ?? tag;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatInteger(n)} ${n === 1 ? one : many}`;
}
