/** Marketplace vocabulary for display: category and language names (pure; unit-tested in format.test.ts). Numbers,
 * prices and dates: lib/platform/format.ts. The categories themselves are the database enum
 * (CATEGORIES in lib/catalog/categories.ts); only their display names live here. */
import type { Category } from '@/lib/catalog';

/** A new category fails the type check here until it has a name. */
const CATEGORY_LABELS: Record<Category, string> = {
  education: 'Education',
  policy: 'Policy',
  health: 'Health',
  research: 'Research',
  legal: 'Legal',
};

export function categoryLabel(category: Category): string {
  return CATEGORY_LABELS[category];
}

const LANGUAGE_NAMES: Record<string, string> = { en: 'English', fr: 'French', de: 'German', es: 'Spanish', it: 'Italian', pt: 'Portuguese', nl: 'Dutch' };

export function languageName(tag: string): string {
  return LANGUAGE_NAMES[tag.toLowerCase().split('-')[0] ?? ''] ?? tag;
}
