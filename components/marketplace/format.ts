/** Marketplace vocabulary for display: category and language names (pure; unit-tested in format.test.ts). Numbers,
 * prices and dates: components/ui/format.ts. */

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

const LANGUAGE_NAMES: Record<string, string> = { en: 'English', fr: 'French', de: 'German', es: 'Spanish', it: 'Italian', pt: 'Portuguese', nl: 'Dutch' };

export function languageName(tag: string): string {
  return LANGUAGE_NAMES[tag.toLowerCase().split('-')[0] ?? ''] ?? tag;
}
