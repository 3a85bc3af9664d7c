import { cx } from '@/components/ui/cx';

const STYLES: Record<string, { label: string; className: string }> = {
  draft: { label: 'Draft', className: 'bg-slate-100 text-slate-800 ring-slate-300' },
  published: { label: 'Published', className: 'bg-emerald-50 text-emerald-900 ring-emerald-300' },
  unpublished: { label: 'Unpublished', className: 'bg-amber-50 text-amber-900 ring-amber-300' },
  suspended: { label: 'Suspended', className: 'bg-red-50 text-red-900 ring-red-300' },
  archived: { label: 'Archived', className: 'bg-slate-100 text-slate-700 ring-slate-300' },
};

/** A listing's state in words (never colour alone). */
export function ListingStatusBadge({ status }: { status: string }) {
  const style = STYLES[status] ?? STYLES.draft!;
  return (
    <span className={cx('inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset', style.className)}>{style.label}</span>
  );
}
