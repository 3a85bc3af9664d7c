import { cx } from '@/components/ui/cx';

/**
 * A publisher's generated mark: the initials of its name on a colour chosen from its slug (stable across pages and
 * renames of the display name), so cards from one publisher are recognisable at a glance. Decorative: the name is
 * always written beside it. The palette's text contrast is at least 4.5:1 (white on the 700 shades).
 */
const PALETTE = [
  { className: 'bg-sky-700', hex: '#0369a1' },
  { className: 'bg-emerald-700', hex: '#047857' },
  { className: 'bg-violet-700', hex: '#6d28d9' },
  { className: 'bg-rose-700', hex: '#be123c' },
  { className: 'bg-amber-700', hex: '#b45309' },
  { className: 'bg-teal-700', hex: '#0f766e' },
  { className: 'bg-indigo-700', hex: '#4338ca' },
  { className: 'bg-fuchsia-700', hex: '#a21caf' },
] as const;

export function publisherInitials(name: string): string {
  const words = name
    .split(/[\s\-–—_/&]+/)
    .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean);
  const significant = words.filter((w) => !/^(the|of|and|for|de|la|le|der|die|das|du|des|el|los|las)$/i.test(w));
  const chosen = (significant.length > 0 ? significant : words).slice(0, 2);
  return chosen.map((w) => [...w][0]!.toUpperCase()).join('') || '?';
}

function paletteEntry(key: string): (typeof PALETTE)[number] {
  let hash = 0;
  for (const ch of key) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  return PALETTE[hash % PALETTE.length]!;
}

/** The mark's background as a Tailwind class, for pages. */
export function publisherColour(key: string): string {
  return paletteEntry(key).className;
}

/** The same colour as a hex value, for images drawn without CSS classes (the social preview image). */
export function publisherColourHex(key: string): string {
  return paletteEntry(key).hex;
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
