// Display names of categories and languages; numbers, prices and dates are in lib/platform/format.ts.
import type { Category } from '@/lib/catalog';

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
