import { formatDate, formatTime } from '@/lib/platform/format';

/**
 * An instant as "Jan 31, 2026, 11:30 PM UTC" in a `<time>` element, breaking only between the date and the time, so a
 * narrow table column shows two tidy lines instead of a date torn after any word.
 */
export function Timestamp({ value, empty = 'never' }: { value: Date | string | null | undefined; empty?: string }) {
  if (!value) return <>{empty}</>;
  const d = typeof value === 'string' ? new Date(value) : value;
  return (
    <time dateTime={d.toISOString()}>
      <span className="whitespace-nowrap">{formatDate(d)},</span> <span className="whitespace-nowrap">{formatTime(d)}</span>
    </time>
  );
}
