import type { Category } from '@/lib/catalog';

// Inline line icons (24 × 24): nothing fetched, no icon font. Decorative: the category's name is always beside it.
const PATHS: Record<Category, string[]> = {
  education: ['M2 9l10-5 10 5-10 5-10-5z', 'M6 11v5c2 2 10 2 12 0v-5', 'M22 9v6'],
  policy: ['M3 10l9-6 9 6', 'M5 10v8', 'M9.5 10v8', 'M14.5 10v8', 'M19 10v8', 'M3 21h18', 'M4 18h16'],
  health: [
    'M12 20s-7-4.4-9-9.1C1.6 7.6 3.7 4 7.2 4c2 0 3.4 1.1 4.8 2.8C13.4 5.1 14.8 4 16.8 4c3.5 0 5.6 3.6 4.2 6.9-2 4.7-9 9.1-9 9.1z',
    'M6 12h3l1.5-3 3 6 1.5-3h3',
  ],
  research: ['M9 3h6', 'M10 3v6L4.5 18.5A1.7 1.7 0 0 0 6 21h12a1.7 1.7 0 0 0 1.5-2.5L14 9V3', 'M7 15h10'],
  legal: ['M12 3v18', 'M8 21h8', 'M5 7h14', 'M5 7l-3 7c1.5 1.5 4.5 1.5 6 0L5 7z', 'M19 7l-3 7c1.5 1.5 4.5 1.5 6 0l-3-7z'],
};

export function CategoryIcon({ category, className = 'h-6 w-6' }: { category: Category; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
    >
      {PATHS[category].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
