import { cx } from '@/components/ui/cx';

/**
 * A publisher's generated mark: the initials of its name on a colour chosen from its slug (stable across pages and
 * renames of the display name), so cards from one publisher are recognisable at a glance. Decorative: the name is
 * always written beside it. The palette's text contrast is at least 4.5:1 (white on the 700 shades).
 */
const PALETTE = ['bg-sky-700', 'bg-emerald-700', 'bg-violet-700', 'bg-rose-700', 'bg-amber-700', 'bg-teal-700', 'bg-indigo-700', 'bg-fuchsia-700'];

export function publisherInitials(name: string): string {
  const words = name
    .split(/[\s\-–—_/&]+/)
    .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean);
  const significant = words.filter((w) => !/^(the|of|and|for|de|la|le|der|die|das|du|des|el|los|las)$/i.test(w));
  const chosen = (significant.length > 0 ? significant : words).slice(0, 2);
  return chosen.map((w) => [...w][0]!.toUpperCase()).join('') || '?';
}

export function publisherColour(key: string): string {
  let hash = 0;
  for (const ch of key) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  return PALETTE[hash % PALETTE.length]!;
}

export function PublisherMark({ name, slug, size = 'sm' }: { name: string; slug: string; size?: 'sm' | 'lg' }) {
  return (
    <span
      aria-hidden="true"
      className={cx(
        'inline-grid shrink-0 place-items-center rounded-full font-semibold text-white',
        size === 'sm' ? 'h-6 w-6 text-[0.625rem]' : 'h-14 w-14 text-lg',
        publisherColour(slug || name),
      )}
    >
      {publisherInitials(name)}
    </span>
  );
}
